// hlerp_scalar.cu with two elements per thread in one __half2 (n even):
// the operands are packed from scalars with __halves2half2 and the
// result unpacked with __low2half and __high2half.
#include <cuda_fp16.h>

__global__ void hlerp(__half *out, const __half *x, const __half *y, __half w, unsigned n) {
  __requires(n % 2 == 0);
  __requires(n <= blockDim.x * gridDim.x);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = 2 * t;
  if (i < n) {
    __half2 xv = __halves2half2(x[i], x[i + 1]);
    __half2 yv = __halves2half2(y[i], y[i + 1]);
    __half2 r = __hadd2(xv, __hmul2(__half2half2(w), __hsub2(yv, xv)));
    out[i] = __low2half(r);
    out[i + 1] = __high2half(r);
  }
}
