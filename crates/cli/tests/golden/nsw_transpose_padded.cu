// expect: verified
// flags: --blockDim=[32,32] --gridDim=[64,64]
// A tiled transpose through a shared tile padded to 33 columns (against
// bank conflicts), reading and writing global memory at `y * width + x`
// with a symbolic width and height: each thread copies one element in and
// one out, and the barrier separates the tile's writes from its reads.
#define TILE 32
__global__ void transpose(float *out, const float *in, int width, int height) {
  __shared__ float tile[TILE * (TILE + 1)];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height)
    tile[threadIdx.y * (TILE + 1) + threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < height && y < width)
    out[y * height + x] = tile[threadIdx.x * (TILE + 1) + threadIdx.y] + (float)x;
}
