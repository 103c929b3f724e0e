// BUG (wrong halo for large blocks only): with 256 threads or more, the
// halo elements come from one element too far. Launches with small blocks,
// which differential testing tries first, show no difference.

#define MAX 1024

__global__ void stencil(int *out, const int *in) {
  __requires(blockDim.x >= 2);
  __shared__ int tile[MAX + 2];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  tile[t] = in[i];
  if (t < 2)
    tile[blockDim.x + t] = in[i + blockDim.x + (blockDim.x >= 256 ? 1 : 0)];
  __syncthreads();
  out[i] = tile[t] + 2 * tile[t + 1] + tile[t + 2];
}
