// hadd_inplace_scalar.cu with one slip: the second element adds x to the
// already updated y[i] instead of y[i + 1].
#include <cuda_fp16.h>

__global__ void hacc(__half *y, const __half *x, unsigned n) {
  __requires(n % 2 == 0);
  __requires(n <= 2 * blockDim.x * gridDim.x);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = 2 * t;
  if (i < n) {
    y[i] = __hadd(y[i], x[i]);
    y[i + 1] = __hadd(y[i], x[i + 1]);
  }
}
