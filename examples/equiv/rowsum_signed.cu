// Row sums of an m x n row-major int matrix with `int` counters: each
// thread sums rows r, r + stride, ... (a grid-stride loop), each row in an
// inner loop. The preconditions keep the stride and the rows' counter
// below INT_MAX (signed overflow is undefined).

__global__ void rowsum(int *s, const int *a, int m, int n) {
  __requires(m >= 0);
  __requires(n >= 0);
  __requires(blockDim.x * gridDim.x <= 0x7fffffff);
  __requires(m <= 0x7fffffff - blockDim.x * gridDim.x);
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += blockDim.x * gridDim.x) {
    int acc = 0;
    for (int k = 0; k < n; k++)
      acc += a[r * n + k];
    s[r] = acc;
  }
}
