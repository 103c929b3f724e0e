// The shared-memory transpose for any square block of up to 32 x 32
// threads (integers), with the transpose specification: after the launch,
// `out[i * height + j] == in[j * width + i]` for every in-range i, j. Each
// thread states the property for its own (i, j); the element it reads is
// written by another thread of its block (the one with threadIdx.x and
// threadIdx.y swapped), through the tile.

#define MAX 32

__global__ void transpose(int *out, const int *in, unsigned width, unsigned height) {
  __requires(blockDim.x == blockDim.y);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned j = blockIdx.y * blockDim.y + threadIdx.y;
  __ensures(__implies(i < width && j < height, out[i * height + j] == in[j * width + i]));
  __shared__ int tile[MAX][MAX + 1];
  if (i < width && j < height)
    tile[threadIdx.y][threadIdx.x] = in[j * width + i];
  __syncthreads();
  unsigned x = blockIdx.y * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.x * blockDim.y + threadIdx.y;
  if (x < height && y < width)
    out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
