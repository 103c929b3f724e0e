// hfma_half2.cu with the fused multiply-add split into __hmul2 and
// __hadd2: two roundings instead of one, so a different result for some
// inputs; it must not be called equivalent to the fused scalar kernel.
#include <cuda_fp16.h>

__global__ void haxpy(__half *out, const __half *x, const __half *y, __half a, unsigned n) {
  __requires(n % 2 == 0);
  __requires(n <= 2 * blockDim.x * gridDim.x);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * t < n) {
    __half2 a2 = __halves2half2(a, a);
    const __half2 *y2 = reinterpret_cast<const __half2 *>(y);
    reinterpret_cast<__half2 *>(out)[t] = __hadd2(__hmul2(a2, reinterpret_cast<const __half2 *>(x)[t]), y2[t]);
  }
}
