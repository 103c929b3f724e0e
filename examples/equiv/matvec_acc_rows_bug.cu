// matvec_acc_rows_unrolled.cu with one bug: the update subtracts the old
// value instead of adding it.

__global__ void matvec_acc(int *y, const int *a, const int *x, unsigned m, unsigned n) {
  for (unsigned r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += gridDim.x * blockDim.x) {
    const int *row = a + r * n;
    int dot = 0;
    unsigned k = 0;
    for (; k + 2 <= n; k += 2) {
      dot += row[k] * x[k];
      dot += row[k + 1] * x[k + 1];
    }
    for (; k < n; k++)
      dot += row[k] * x[k];
    y[r] = dot - y[r];
  }
}
