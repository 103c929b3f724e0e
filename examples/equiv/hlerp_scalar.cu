// out = x + t * (y - x) per element in half precision (a linear
// interpolation), one element per thread.
#include <cuda_fp16.h>

__global__ void hlerp(__half *out, const __half *x, const __half *y, __half w, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __hadd(x[i], __hmul(w, __hsub(y[i], x[i])));
}
