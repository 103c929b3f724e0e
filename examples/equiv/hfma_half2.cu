// hfma_scalar.cu vectorized: each thread loads its two elements of x and
// y as one __half2 each and computes both with one __hfma2.
#include <cuda_fp16.h>

__global__ void haxpy(__half *out, const __half *x, const __half *y, __half a, unsigned n) {
  __requires(n % 2 == 0);
  __requires(n <= 2 * blockDim.x * gridDim.x);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * t < n) {
    __half2 a2 = __halves2half2(a, a);
    const __half2 *y2 = reinterpret_cast<const __half2 *>(y);
    reinterpret_cast<__half2 *>(out)[t] = __hfma2(a2, reinterpret_cast<const __half2 *>(x)[t], y2[t]);
  }
}
