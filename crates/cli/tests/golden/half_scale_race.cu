// expect: errors
// flags: --blockDim=128 --gridDim=8 --cuda-headers=toolkit
// As half_scale.cu, but the result goes to y[i / 2]: two threads write one
// element.
#include <cuda_fp16.h>

__global__ void half_scale(int n, __half a, const __half *x, __half *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i / 2] = __hmul(a, x[i]);
  }
}
