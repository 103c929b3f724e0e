// Lane-wise product of half2 vectors with the prelude's `__hmul2`.
#include <cuda_fp16.h>

__global__ void hprod(const __half2 *a, const __half2 *b, __half2 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __hmul2(a[i], b[i]);
}
