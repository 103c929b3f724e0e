// hsub_prelude.cu written with `operator-`, whose operands are references:
// the addresses of the elements themselves reach the call, and the
// difference is first held in a local half.
#include <cuda_fp16.h>

__global__ void hdiff(__half *out, const __half *x, const __half *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half d = x[i] - y[i];
    out[i] = d;
  }
}
