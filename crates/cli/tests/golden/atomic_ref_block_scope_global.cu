// expect: errors
// flags: --blockDim=64 --gridDim=4
#include <cuda/atomic>
// A grid-wide sum through a block-scoped `atomic_ref` on global memory:
// blocks race on `total`, which a block-scoped atomic does not prevent.
__global__ void grid_sum(const int *in, int *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cuda::atomic_ref<int, cuda::thread_scope_block> sum(*total);
    sum.fetch_add(in[i], cuda::memory_order_relaxed);
  }
}
