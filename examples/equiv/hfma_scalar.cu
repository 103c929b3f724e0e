// out = a * x + y in half precision with one fused multiply-add per
// element, two elements per thread, on a launch that covers the input
// (n even).
#include <cuda_fp16.h>

__global__ void haxpy(__half *out, const __half *x, const __half *y, __half a, unsigned n) {
  __requires(n % 2 == 0);
  __requires(n <= 2 * blockDim.x * gridDim.x);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = 2 * t;
  if (i < n) {
    out[i] = __hfma(a, x[i], y[i]);
    out[i + 1] = __hfma(a, x[i + 1], y[i + 1]);
  }
}
