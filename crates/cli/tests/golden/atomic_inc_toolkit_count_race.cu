// expect: errors
// flags: --blockDim=128 --gridDim=4 --cuda-headers=toolkit
// `atomicInc` and `atomicDec` as the CUDA toolkit's headers write them
// (NVVM's `atomic.load.inc.32` and `dec.32`): each block counts its
// threads with wrapping increments (and its very negative inputs, down),
// and one thread reads the count after the barrier. The bug: the count is
// read before the second barrier, racing with the other threads'
// increments.
#include <cuda_runtime.h>
__global__ void count_positive(const int *in, unsigned *counts, unsigned *out) {
  __shared__ unsigned count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicInc(&count, 0xffffffffu);
  if (in[i] < -100) atomicDec(&counts[blockIdx.x], 0xffffffffu);
  if (threadIdx.x == 0) out[blockIdx.x] = count;
}
