// iaxpy_inplace_each.cu with two neighbouring elements per thread, the
// second one only when it exists (n may be odd): the thread reads y[i + 1]
// after it wrote y[i].

__global__ void iaxpy(int *y, const int *x, int a, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  unsigned i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    y[i] += a * x[i];
    if (i + 1 < n)
      y[i + 1] += a * x[i + 1];
  }
}
