// scale2d_grid_stride.cu with one slip: the column loop stops one column
// early, so the last column keeps its old value.

__global__ void scale2d(int *out, const int *in, unsigned m, unsigned n) {
  __requires(m <= blockDim.y * gridDim.y);
  __requires(n <= blockDim.x * gridDim.x);
  for (unsigned row = blockIdx.y * blockDim.y + threadIdx.y; row < m; row += blockDim.y * gridDim.y)
    for (unsigned col = blockIdx.x * blockDim.x + threadIdx.x; col + 1 < n; col += blockDim.x * gridDim.x)
      out[row * n + col] = 3 * in[row * n + col] + 1;
}
