// expect: verified
// flags: --blockDim=64 --gridDim=[4,4] --mode=prove
// Each thread adds a column strip of 32 rows. `index` steps by a row (256
// elements) whenever `k` steps by one, so `index - index0 == 256 * k`
// (the linked-counters rule), and the bound on `k` keeps a thread within
// its block's 32 rows.
#define WIDTH 256
#define ROWS 32
__global__ void add_rows(const int *a, const int *b, int *c) {
  int i = blockIdx.x * 64 + threadIdx.x;
  int index = i + blockIdx.y * ROWS * WIDTH;
  for (int k = 0; k < ROWS; k++) {
    c[index] = a[index] + b[index];
    index += WIDTH;
  }
}
