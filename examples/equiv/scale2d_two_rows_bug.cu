// scale2d_two_rows.cu with one slip: the second row is stored one column
// to the left.

__global__ void scale2d(int *out, const int *in, unsigned m, unsigned n) {
  __requires(m <= blockDim.y * gridDim.y);
  __requires(n <= blockDim.x * gridDim.x);
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < n) {
    unsigned top = 2 * y;
    if (top < m)
      out[top * n + col] = 3 * in[top * n + col] + 1;
    if (top + 1 < m && col > 0)
      out[(top + 1) * n + col - 1] = 3 * in[(top + 1) * n + col] + 1;
  }
}
