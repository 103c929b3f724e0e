// expect: errors
// flags: --blockDim=128 --gridDim=4
// As cuda_barrier_reverse, but only the lower half of the block reaches the
// barrier: the upper half reads the tile the lower half is still writing.
#include <cuda/barrier>

__global__ void reverse_tiles(int *out, const int *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> ready;
  __shared__ int tile[128];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * blockDim.x;
  if (t == 0) init(&ready, blockDim.x);
  __syncthreads();
  tile[t] = in[base + t];
  if (t < blockDim.x / 2) ready.arrive_and_wait();
  out[base + t] = tile[blockDim.x - 1 - t];
}
