// expect: verified
// flags: --blockDim=[16,16] --gridDim=[32,32]
// 2-D indexing with a row length known only at run time: thread (row, col)
// writes out[row * n + col], and col < n makes distinct threads write
// distinct elements.

__global__ void scale(const float *in, float *out, int n, int m, float s) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    out[row * n + col] = s * in[row * n + col];
  }
}
