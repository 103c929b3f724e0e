// scale2d_each.cu as a 2-D grid-stride loop: rows step by the grid's
// height in threads, columns by its width. On a launch that covers the
// matrix each thread runs one iteration of each loop.

__global__ void scale2d(int *out, const int *in, unsigned m, unsigned n) {
  __requires(m <= blockDim.y * gridDim.y);
  __requires(n <= blockDim.x * gridDim.x);
  for (unsigned row = blockIdx.y * blockDim.y + threadIdx.y; row < m; row += blockDim.y * gridDim.y)
    for (unsigned col = blockIdx.x * blockDim.x + threadIdx.x; col < n; col += blockDim.x * gridDim.x)
      out[row * n + col] = 3 * in[row * n + col] + 1;
}
