// Several rows per thread with `int` counters, the way most code spells a
// grid-stride loop: y[r] = 2 * b[r] + c for rows r, r + stride, ... below
// m. Signed `r += stride` may not overflow (C leaves that undefined), so
// the preconditions keep the stride and the last step below INT_MAX.

__global__ void rows(int *y, const int *b, int c, int m) {
  __requires(m >= 0);
  __requires(blockDim.x * gridDim.x <= 0x7fffffff);
  __requires(m <= 0x7fffffff - blockDim.x * gridDim.x);
  int stride = blockDim.x * gridDim.x;
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += stride)
    y[r] = 2 * b[r] + c;
}
