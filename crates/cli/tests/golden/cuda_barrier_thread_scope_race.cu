// expect: errors
// flags: --blockDim=128 --gridDim=4
// The defect: a thread-scope cuda::barrier used as if it were the block's.
// Each thread waits only for itself, so reading a neighbour's element of
// the shared tile races with the neighbour's write.
#include <cuda/barrier>

__global__ void reverse_tile_thread_barrier(int *out, const int *in) {
  __shared__ int tile[128];
  cuda::barrier<cuda::thread_scope_thread> own;
  init(&own, 1);
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * blockDim.x;
  tile[t] = in[base + t];
  own.arrive_and_wait();
  out[base + t] = tile[blockDim.x - 1 - t];
}
