// expect: possible-errors
// flags: --blockDim=[16,16] --gridDim=[64,64]
// As nsw_row_major_scale.cu with the bound `col <= n`: the thread at
// (row, n) scales the element of (row + 1, 0) too.
__global__ void scale_rows(float *m, const float *s, int rows, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows && col <= n)
    m[row * n + col] *= s[row];
}
