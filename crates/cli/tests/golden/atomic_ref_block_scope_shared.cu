// expect: verified
// flags: --blockDim=64 --gridDim=4
#include <cuda/atomic>
// A per-block sum through a block-scoped `atomic_ref` on shared memory,
// written out by one thread per block after the barrier.
__global__ void block_sums(const int *in, int *out, int n) {
  __shared__ int acc;
  if (threadIdx.x == 0) acc = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cuda::atomic_ref<int, cuda::thread_scope_block> sum(acc);
    sum.fetch_add(in[i], cuda::memory_order_relaxed);
  }
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = acc;
}
