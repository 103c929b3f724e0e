// A buggy transpose for any square block: the second phase guards the
// write with the input's bounds (x < width, y < height) instead of the
// output's, so on non-square matrices some elements are never written and
// others are written from outside the tile that was loaded.

#define MAX 32

__global__ void transpose(float *out, const float *in, unsigned width, unsigned height) {
  __requires(blockDim.x == blockDim.y);
  __shared__ float tile[MAX][MAX + 1];
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * blockDim.x + threadIdx.x;
  y = blockIdx.x * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
