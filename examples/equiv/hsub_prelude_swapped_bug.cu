// hsub_prelude_operator.cu with one slip: the operands of the difference
// are swapped (y - x), which negates every element.
#include <cuda_fp16.h>

__global__ void hdiff(__half *out, const __half *x, const __half *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half d = y[i] - x[i];
    out[i] = d;
  }
}
