// expect: errors
// flags: --blockDim=[16,16] --gridDim=[64,64]
// As nsw_stencil_rows.cu with the row offset missing from the written
// index: every row writes the same element `col`, with values that differ.
__global__ void smooth(const float *in, float *out, int rows, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row > 0 && row < rows - 1 && col > 0 && col < n - 1) {
    float up = in[(row - 1) * n + col], down = in[(row + 1) * n + col];
    out[col] = 0.5f * (up + down) + (float)row;
  }
}
