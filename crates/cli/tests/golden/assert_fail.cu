// expect: errors
// flags: --blockDim=32 --gridDim=1
// The assertion holds only for the first half of the block.
#include <assert.h>

__global__ void half(int *out) {
  assert(threadIdx.x < 16);
  out[threadIdx.x] = 1;
}
