// matvec_row.cu with the rows taken by a grid-stride loop, each with its
// inner loop over the columns: the form that works for any launch.

__global__ void matvec(float *y, const float *a, const float *x, unsigned m, unsigned n) {
  __requires(m <= blockDim.x * gridDim.x);
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += stride) {
    float sum = 0.0f;
    for (unsigned k = 0; k < n; k++)
      sum += a[r * n + k] * x[k];
    y[r] = sum;
  }
}
