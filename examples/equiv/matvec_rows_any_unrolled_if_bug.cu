// matvec_rows_any_unrolled_if.cu with one slip: the remainder's condition
// is one short, so rows of odd length miss their last product.

__global__ void matvec(float *y, const float *a, const float *x, unsigned m, unsigned n) {
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += stride) {
    float sum = 0.0f;
    unsigned k = 0;
    for (; k + 2 <= n; k += 2) {
      sum += a[r * n + k] * x[k];
      sum += a[r * n + k + 1] * x[k + 1];
    }
    if (k + 1 < n)
      sum += a[r * n + k] * x[k];
    y[r] = sum;
  }
}
