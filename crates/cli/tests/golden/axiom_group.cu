// expect: verified
// flags: --blockDim=64 --gridDim=64
// Race-free only because the file-scope axiom restricts the launch to
// block 16.
#include <cuda.h>

__axiom(blockIdx.x == 16);

__global__ void k(int *a) {
  if (blockIdx.x != 16) {
    a[0] = threadIdx.x;
  }
}
