// expect: errors
// flags: --blockDim=[32,32] --gridDim=[64,64]
// As nsw_transpose_padded.cu without the barrier: a thread reads the tile
// element another thread of its block writes, with nothing ordering them.
#define TILE 32
__global__ void transpose(float *out, const float *in, int width, int height) {
  __shared__ float tile[TILE * (TILE + 1)];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height)
    tile[threadIdx.y * (TILE + 1) + threadIdx.x] = in[y * width + x];

  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < height && y < width)
    out[y * height + x] = tile[threadIdx.x * (TILE + 1) + threadIdx.y] + (float)x;
}
