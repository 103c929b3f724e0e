// expect: possible-errors
// flags: --blockDim=64 --gridDim=[4,4] --mode=prove
// As linked_counters_rows.cu, but the loop runs one row too far (`<=`): a
// thread's last row is the first row of the block below it.
#define WIDTH 256
#define ROWS 32
__global__ void add_rows(const int *a, const int *b, int *c) {
  int i = blockIdx.x * 64 + threadIdx.x;
  int index = i + blockIdx.y * ROWS * WIDTH;
  for (int k = 0; k <= ROWS; k++) {
    c[index] = a[index] + b[index];
    index += WIDTH;
  }
}
