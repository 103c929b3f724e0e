// expect: errors
// flags: --blockDim=128 --gridDim=4
// As cuda_barrier_reverse without the __syncthreads() after `init`: the
// other threads may arrive at the barrier before thread 0 has initialised
// it (a race on the barrier object itself).
#include <cuda/barrier>

__global__ void reverse_tiles(int *out, const int *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> ready;
  __shared__ int tile[128];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * blockDim.x;
  if (t == 0) init(&ready, blockDim.x);
  tile[t] = in[base + t];
  ready.arrive_and_wait();
  out[base + t] = tile[blockDim.x - 1 - t];
}
