// The half-precision sum of hadd_prelude.cu written with `operator+`, which
// takes its operands by reference: the addresses of x[i] and y[i] reach the
// call, not copies. The same sum on the hardware.
#include <cuda_fp16.h>

__global__ void hsum(const __half *x, const __half *y, __half *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i] + y[i];
}
