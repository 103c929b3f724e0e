// A shared-memory transpose that forgets the barrier between filling the
// tile and reading it: threads read elements other threads may not have
// written yet (a data race), so its output depends on the schedule.

#define TILE 8

__global__ void transpose(float *out, const float *in, unsigned width, unsigned height) {
  __shared__ float tile[TILE][TILE + 1];
  unsigned x = blockIdx.x * TILE + threadIdx.x;
  unsigned y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height)
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < height && y < width)
    out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
