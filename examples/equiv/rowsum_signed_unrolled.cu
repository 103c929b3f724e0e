// rowsum_signed.cu with each row's inner loop unrolled by two and a
// remainder loop for an odd n: the same additions in the same order.

__global__ void rowsum(int *s, const int *a, int m, int n) {
  __requires(m >= 0);
  __requires(n >= 0);
  __requires(blockDim.x * gridDim.x <= 0x7fffffff);
  __requires(m <= 0x7fffffff - blockDim.x * gridDim.x);
  int stride = blockDim.x * gridDim.x;
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += stride) {
    const int *row = a + r * n;
    int acc = 0;
    int k = 0;
    for (; k + 1 < n; k += 2) {
      acc += row[k];
      acc += row[k + 1];
    }
    for (; k < n; k++)
      acc += row[k];
    s[r] = acc;
  }
}
