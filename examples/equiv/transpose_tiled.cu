// The shared-memory transpose: a block stages a TILE x TILE tile of `in`
// in shared memory, then writes it out transposed so that consecutive
// threads write consecutive elements of `out` (coalesced writes). The tile
// has one padding column so that reading a column hits distinct banks.
// Written for square TILE x TILE blocks.

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
    out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
