// y = A x with several rows per thread for any launch: rows r, r + stride,
// r + 2 stride, ... of the grid-stride loop, each with its inner loop.

__global__ void matvec(float *y, const float *a, const float *x, unsigned m, unsigned n) {
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += stride) {
    float sum = 0.0f;
    for (unsigned k = 0; k < n; k++)
      sum += a[r * n + k] * x[k];
    y[r] = sum;
  }
}
