// Half-precision sum of two vectors with the prelude's `__hadd` (compiled
// against lockstep's <cuda_fp16.h>, where it has no body): `__half` is a
// struct, so each operand reaches the call as the address of a copy.
#include <cuda_fp16.h>

__global__ void hsum(const __half *x, const __half *y, __half *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __hadd(x[i], y[i]);
}
