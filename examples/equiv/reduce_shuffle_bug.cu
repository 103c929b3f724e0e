// A wrong warp-shuffle reduction: the shuffle offsets start at 8, so each
// warp sums only its lanes 0-15 into lane 0.

__device__ int warp_sum(int v) {
  for (int offset = 8; offset > 0; offset /= 2)
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
