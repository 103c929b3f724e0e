// expect: errors
// flags: --blockDim=[16,16] --gridDim=[32,32]
// As rowcol_stencil.cu, but the step is done in place: thread (row, col)
// writes the element its neighbour (row, col + 1) reads.

__global__ void jacobi(float *grid, int n, int m) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row > 0 && row < m - 1 && col > 0 && col < n - 1) {
    grid[row * n + col] = 0.25f * (grid[(row - 1) * n + col] + grid[(row + 1) * n + col] +
                                   grid[row * n + col - 1] + grid[row * n + col + 1]);
  }
}
