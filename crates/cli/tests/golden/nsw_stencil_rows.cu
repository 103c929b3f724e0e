// expect: verified
// flags: --blockDim=[16,16] --gridDim=[64,64]
// A five-point stencil from one buffer into another, whose output element
// is a function of the thread's own inputs: (row - 1) * n + col and
// (row + 1) * n + col are rows above and below, with signed arithmetic
// that does not overflow. Each thread writes its own element once.
__global__ void smooth(const float *in, float *out, int rows, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row > 0 && row < rows - 1 && col > 0 && col < n - 1) {
    float up = in[(row - 1) * n + col], down = in[(row + 1) * n + col];
    out[row * n + col] = 0.5f * (up + down) + (float)row;
  }
}
