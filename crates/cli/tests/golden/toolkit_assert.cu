// expect: verified
// flags: --blockDim=64 --gridDim=4 --cuda-headers=toolkit
// A device-side assert through the CUDA toolkit's headers (clang's wrapper
// defines __assert_fail with a body): it holds for every thread.
#include <cassert>

__global__ void bounded(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(i < n);
    out[i] = i;
  }
}
