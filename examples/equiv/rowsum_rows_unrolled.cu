// rowsum_rows.cu with the inner loop unrolled by four and a remainder
// loop; the stride is computed in the other operand order.

__global__ void rowsum(int *out, const int *in, unsigned m, unsigned n) {
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += stride) {
    const int *row = in + r * n;
    int sum = 0;
    unsigned k = 0;
    for (; k + 4 <= n; k += 4) {
      sum += row[k];
      sum += row[k + 1];
      sum += row[k + 2];
      sum += row[k + 3];
    }
    for (; k < n; k++)
      sum += row[k];
    out[r] = sum;
  }
}
