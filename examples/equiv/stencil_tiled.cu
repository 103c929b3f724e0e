// The three-point stencil of stencil_naive.cu with a shared-memory tile:
// each thread loads one element of its block's tile, the first two threads
// also load the two halo elements past the block's end (so a block has at
// least two threads), and after the barrier every thread reads its three
// neighbours from the tile.

#define MAX 1024

__global__ void stencil(int *out, const int *in) {
  __requires(blockDim.x >= 2);
  __shared__ int tile[MAX + 2];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  tile[t] = in[i];
  if (t < 2)
    tile[blockDim.x + t] = in[i + blockDim.x];
  __syncthreads();
  out[i] = tile[t] + 2 * tile[t + 1] + tile[t + 2];
}
