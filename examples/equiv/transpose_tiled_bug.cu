// A buggy shared-memory transpose: the second phase reads the tile without
// swapping the indices, so each block writes its tile untransposed.

#define TILE 8

__global__ void transpose(float *out, const float *in, unsigned width, unsigned height) {
  __shared__ float tile[TILE][TILE + 1];
  unsigned x = blockIdx.x * TILE + threadIdx.x;
  unsigned y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height)
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < height && y < width)
    out[y * height + x] = tile[threadIdx.y][threadIdx.x];
}
