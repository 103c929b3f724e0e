// The shared-memory transpose for any square block of up to 32 x 32
// threads: the tile's side is blockDim.x, and the precondition states that
// the block is square (the second phase swaps the roles of x and y).

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
  if (x < height && y < width)
    out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
