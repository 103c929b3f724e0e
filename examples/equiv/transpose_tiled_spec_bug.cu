// The buggy tiled transpose (indices not swapped) against the transpose
// specification: the postcondition fails.

#define TILE 8

__global__ void transpose(int *out, const int *in, unsigned width, unsigned height) {
  unsigned i = blockIdx.x * TILE + threadIdx.x;
  unsigned j = blockIdx.y * TILE + threadIdx.y;
  __ensures(__implies(i < width && j < height, out[i * height + j] == in[j * width + i]));
  __shared__ int tile[TILE][TILE + 1];
  if (i < width && j < height)
    tile[threadIdx.y][threadIdx.x] = in[j * width + i];
  __syncthreads();
  unsigned x = blockIdx.y * TILE + threadIdx.x;
  unsigned y = blockIdx.x * TILE + threadIdx.y;
  if (x < height && y < width)
    out[y * height + x] = tile[threadIdx.y][threadIdx.x];
}
