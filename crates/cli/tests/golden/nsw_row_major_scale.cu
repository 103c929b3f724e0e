// expect: verified
// flags: --blockDim=[16,16] --gridDim=[64,64]
// Each thread scales its own element of a row-major matrix in place. The
// index `row * n + col` is signed int arithmetic, which C++ forbids to
// overflow, so two threads with different rows are at least `n` elements
// apart and `col < n` keeps each in its own row: no two threads touch one
// element. (Modulo 2^32 the index could wrap onto another thread's.)
__global__ void scale_rows(float *m, const float *s, int rows, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows && col < n)
    m[row * n + col] *= s[row];
}
