// Half-precision difference of two vectors with the prelude's `__hsub`
// (no body in lockstep's <cuda_fp16.h>): each operand reaches the call as
// the address of a by-value copy.
#include <cuda_fp16.h>

__global__ void hdiff(__half *out, const __half *x, const __half *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __hsub(x[i], y[i]);
}
