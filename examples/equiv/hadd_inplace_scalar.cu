// y += x in half precision, in place, two elements per thread: the thread
// writes y[i] and then reads y[i + 1], which its own write must not
// reach. The launch covers the input (n even).
#include <cuda_fp16.h>

__global__ void hacc(__half *y, const __half *x, unsigned n) {
  __requires(n % 2 == 0);
  __requires(n <= 2 * blockDim.x * gridDim.x);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = 2 * t;
  if (i < n) {
    y[i] = __hadd(y[i], x[i]);
    y[i + 1] = __hadd(y[i + 1], x[i + 1]);
  }
}
