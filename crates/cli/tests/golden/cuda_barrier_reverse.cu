// expect: verified
// flags: --blockDim=128 --gridDim=4
// libcu++'s block-scope cuda::barrier as CUDA's samples declare it: a
// `__shared__` barrier (legal under clang through lockstep's model of the
// class), initialised by one thread for the whole block, then used as a
// block barrier between writing a tile and reading it reversed.
#include <cuda/barrier>

__global__ void reverse_tiles(int *out, const int *in) {
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> ready;
  __shared__ int tile[128];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * blockDim.x;
  if (t == 0) init(&ready, blockDim.x);
  __syncthreads();
  tile[t] = in[base + t];
  ready.arrive_and_wait();
  out[base + t] = tile[blockDim.x - 1 - t];
}
