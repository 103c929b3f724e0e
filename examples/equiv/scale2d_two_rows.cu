// scale2d_each.cu with a 2 x 1 block of elements per thread: rows 2y and
// 2y + 1 of column x, each only when it exists (m may be odd).

__global__ void scale2d(int *out, const int *in, unsigned m, unsigned n) {
  __requires(m <= blockDim.y * gridDim.y);
  __requires(n <= blockDim.x * gridDim.x);
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < n) {
    unsigned top = 2 * y;
    if (top < m)
      out[top * n + col] = 3 * in[top * n + col] + 1;
    if (top + 1 < m)
      out[(top + 1) * n + col] = 3 * in[(top + 1) * n + col] + 1;
  }
}
