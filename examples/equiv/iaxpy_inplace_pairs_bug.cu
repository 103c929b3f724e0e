// iaxpy_inplace_pairs.cu with one slip: the second element is computed
// from the first one's updated value.

__global__ void iaxpy(int *y, const int *x, int a, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  unsigned i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    y[i] += a * x[i];
    if (i + 1 < n)
      y[i + 1] = y[i] + a * x[i + 1];
  }
}
