// A warp-shuffle reduction for any power-of-two block size of at least 64
// threads, with the first add during the global load (each block sums
// 2 * blockDim.x inputs): each warp sums its values with __shfl_down_sync,
// the warps' sums go through shared memory, and the first warp sums them.

__device__ int warp_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void reduce(int *out, const int *in) {
  __requires((blockDim.x & (blockDim.x - 1)) == 0 && blockDim.x >= 64);
  __shared__ int partial[32];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * blockDim.x) + tid;
  int v = warp_sum(in[i] + in[i + blockDim.x]);
  if (tid % 32 == 0)
    partial[tid / 32] = v;
  __syncthreads();
  if (tid < 32) {
    v = tid < blockDim.x / 32 ? partial[tid] : 0;
    v = warp_sum(v);
    if (tid == 0)
      out[blockIdx.x] = v;
  }
}
