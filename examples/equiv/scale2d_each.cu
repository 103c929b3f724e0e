// out = 3 * in + 1 over an m x n row-major matrix (any width n), one
// element per thread of a 2-D launch that covers the matrix.

__global__ void scale2d(int *out, const int *in, unsigned m, unsigned n) {
  __requires(m <= blockDim.y * gridDim.y);
  __requires(n <= blockDim.x * gridDim.x);
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n)
    out[row * n + col] = 3 * in[row * n + col] + 1;
}
