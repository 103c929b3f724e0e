// matvec_acc_rows.cu with the row's loop unrolled by two (and a
// remainder loop) and the update written out as y[r] = dot + y[r].

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
    y[r] = dot + y[r];
  }
}
