// matvec_rows_any.cu with a wrong stride: each thread skips every other
// row of its share, which only launches with fewer threads than rows show.

__global__ void matvec(float *y, const float *a, const float *x, unsigned m, unsigned n) {
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += 2 * stride) {
    float sum = 0.0f;
    for (unsigned k = 0; k < n; k++)
      sum += a[r * n + k] * x[k];
    y[r] = sum;
  }
}
