// expect: verified
// flags: --blockDim=64 --gridDim=4
#include <cuda/atomic>
// Per-block partial sums through a block-scoped `atomic_ref`: each block
// owns `partial[blockIdx.x]`, so an atomic among its own threads is enough
// (`atomic_ref_block_scope_global.cu` shares one location between blocks).
__global__ void block_sums(const int *in, int *partial, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cuda::atomic_ref<int, cuda::thread_scope_block> sum(partial[blockIdx.x]);
    sum.fetch_add(in[i], cuda::memory_order_relaxed);
  }
}
