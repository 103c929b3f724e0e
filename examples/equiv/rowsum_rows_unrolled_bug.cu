// rowsum_rows_unrolled.cu with one slip: the remainder loop starts over at
// column 0, so rows with a remainder add their first columns twice.

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
    for (unsigned j = k - k; j < n - k; j++)
      sum += row[j];
    out[r] = sum;
  }
}
