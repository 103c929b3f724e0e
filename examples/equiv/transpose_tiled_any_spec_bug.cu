// A buggy shared-memory transpose for any square block, against the
// transpose specification: the second phase reads the tile without
// swapping the thread indices, so each element of `out` receives the
// wrong element of `in` (within the tile). The postcondition fails.

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
    out[y * height + x] = tile[threadIdx.y][threadIdx.x];
}
