// matvec_rows_any_unrolled.cu with one slip: the remainder loop stops one
// column early, so rows of odd length miss their last product.

__global__ void matvec(float *y, const float *a, const float *x, unsigned m, unsigned n) {
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += stride) {
    const float *row = a + r * n;
    float sum = 0.0f;
    unsigned k = 0;
    for (; k + 2 <= n; k += 2) {
      sum += row[k] * x[k];
      sum += row[k + 1] * x[k + 1];
    }
    for (; k + 1 < n; k++)
      sum += row[k] * x[k];
    y[r] = sum;
  }
}
