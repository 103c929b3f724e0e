// expect: verified
// flags: --blockDim=64 --gridDim=128
// A block stages ROWS rows of its tile in shared memory, one column per
// thread, then each thread scales its own column in a second loop before
// the barrier; the loop counter is the row, the column is the thread's.
// The logged offsets of `tile` at each loop head are (r * COLS + tid) * 4
// for some earlier row r of the same thread.
#define ROWS 16
#define COLS 64
__global__ void shared_rows_tile(const float *in, float *out, float scale) {
  __shared__ float tile[ROWS * COLS];
  int col = threadIdx.x;
  int base = blockIdx.x * ROWS * COLS;
  for (int r = 0; r < ROWS; ++r)
    tile[r * COLS + col] = in[base + r * COLS + col];
  for (int r = 0; r < ROWS; ++r)
    tile[r * COLS + col] *= scale;
  __syncthreads();
  for (int r = 0; r < ROWS; ++r)
    out[base + r * COLS + col] = tile[(ROWS - 1 - r) * COLS + col];
}
