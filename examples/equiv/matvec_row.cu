// y = A x for an m x n row-major matrix A: one row per thread, the row's
// dot product in an inner loop over its n columns. The launch covers the
// rows (m at most the grid's thread count).

__global__ void matvec(float *y, const float *a, const float *x, unsigned m, unsigned n) {
  __requires(m <= blockDim.x * gridDim.x);
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) {
    float sum = 0.0f;
    for (unsigned k = 0; k < n; k++)
      sum += a[r * n + k] * x[k];
    y[r] = sum;
  }
}
