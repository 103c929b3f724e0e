// rowsum_signed_unrolled.cu with one bug: the remainder loop is an `if`
// that adds the last element even when n is even, so even rows count
// their last column twice.

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
    if (n > 0)
      acc += row[n - 1];
    s[r] = acc;
  }
}
