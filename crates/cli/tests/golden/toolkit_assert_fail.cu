// expect: errors
// flags: --blockDim=64 --gridDim=4 --cuda-headers=toolkit
// As toolkit_assert.cu, but the assertion claims more than the guard gives.
#include <cassert>

__global__ void bounded(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(i < 128);
    out[i] = i;
  }
}
