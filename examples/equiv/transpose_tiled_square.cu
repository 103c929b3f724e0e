// A shared-memory transpose written for any square block (up to 32 x 32):
// it uses blockDim.x where the second phase needs blockDim.y and vice
// versa, which only coincide when the block is square.

#define MAX 32

__global__ void transpose(float *out, const float *in, unsigned width, unsigned height) {
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
