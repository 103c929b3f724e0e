// expect: errors
// flags: --check-array-bounds
// A kernel written for 16x8 blocks: each block transposes a tile of a
// 512x512 matrix through shared memory indexed by its thread ids. The file
// has no `main` (the program's host code lives elsewhere) but launches the
// kernel from a wrapper whose sizes are constants, so the kernel is
// checked for that launch. This wrapper launches one row of threads too
// many: they write past the shared tile.
#define N 512
#define TILE_X 16
#define TILE_Y 8

__global__ void transpose_tile(float *out, const float *in) {
  __shared__ float tile[TILE_Y][TILE_X + 1];
  unsigned x = blockIdx.x * TILE_X + threadIdx.x;
  unsigned y = blockIdx.y * TILE_Y + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * N + x];
  __syncthreads();
  out[x * N + y] = tile[threadIdx.y][threadIdx.x];
}

void transpose(float *out, const float *in) {
  dim3 threads(TILE_X, TILE_Y + 1);
  dim3 blocks(N / TILE_X, N / TILE_Y);
  transpose_tile<<<blocks, threads>>>(out, in);
}
