// matvec_rows_any.cu with a wrong row bound: the grid-stride loop stops
// one row early, so the last row of y keeps its old value.

__global__ void matvec(float *y, const float *a, const float *x, unsigned m, unsigned n) {
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned r = blockIdx.x * blockDim.x + threadIdx.x; r + 1 < m; r += stride) {
    float sum = 0.0f;
    for (unsigned k = 0; k < n; k++)
      sum += a[r * n + k] * x[k];
    y[r] = sum;
  }
}
