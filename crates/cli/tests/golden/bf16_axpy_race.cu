// expect: errors
// flags: --blockDim=128 --gridDim=32
// As bf16_axpy.cu, but each result goes to y[i / 2]: two threads write one element.
#include <cuda_bf16.h>

__global__ void bf16_axpy(int n, __nv_bfloat16 a, const __nv_bfloat16 *x, __nv_bfloat16 *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float r = __bfloat162float(a) * __bfloat162float(x[i]) + __bfloat162float(y[i]);
    y[i / 2] = __float2bfloat16(r);
  }
}
