// y += A x for an m x n row-major int matrix, several rows per thread
// for any launch: each iteration of the grid-stride loop adds one row's
// dot product to its element of y, in place.

__global__ void matvec_acc(int *y, const int *a, const int *x, unsigned m, unsigned n) {
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += stride) {
    int dot = 0;
    for (unsigned k = 0; k < n; k++)
      dot += a[r * n + k] * x[k];
    y[r] += dot;
  }
}
