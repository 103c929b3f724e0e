// scale2d_two_cols.cu with one slip: the second column is computed from
// the first column's input.

__global__ void scale2d(int *out, const int *in, unsigned m, unsigned n) {
  __requires(m <= blockDim.y * gridDim.y);
  __requires(n <= blockDim.x * gridDim.x);
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned col = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (row < m) {
    for (unsigned j = 0; j < 2; j++)
      if (col + j < n)
        out[row * n + col + j] = 3 * in[row * n + col] + 1;
  }
}
