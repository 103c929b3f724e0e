// expect: errors
// flags: --blockDim=[16,16] --gridDim=[64,64]
// The index of nsw_row_major_scale.cu in unsigned arithmetic, which wraps
// modulo 2^32 by definition: with a large `n`, rows 0 and 2^32 / n apart
// meet at one element. No non-overflow assumption may be made here.
__global__ void scale_rows(float *m, const float *s, unsigned rows, unsigned n) {
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows && col < n)
    m[row * n + col] *= s[row];
}
