// expect: verified
// flags: --blockDim=128 --gridDim=8 --cuda-headers=toolkit
// y = a * x in half precision, one element per thread.
#include <cuda_fp16.h>

__global__ void half_scale(int n, __half a, const __half *x, __half *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = __hmul(a, x[i]);
  }
}
