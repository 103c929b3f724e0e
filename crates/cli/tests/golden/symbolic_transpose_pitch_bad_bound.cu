// expect: errors
// Issue #16: no launch sizes given (symbolic blockDim/gridDim).
// The bug: row <= rows lets row `rows` of column c alias row 0 of column c + 1.
// A transpose with symbolic pitches: the write index is col * rows + row.
__global__ void transpose(const float *in, float *out, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row <= rows && col < cols)
    out[col * rows + row] = in[row * cols + col];
}
