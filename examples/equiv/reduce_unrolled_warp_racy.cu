// Harris's reduction #5 as first published: the last warp unrolled with
// neither volatile nor __syncwarp. On Volta and later the lanes of a warp
// are not in lockstep, so a lane may read sdata[tid + 16] before its
// neighbour wrote it: a data race, not a difference.

#define MAX 1024

__device__ void warp_reduce(int *sdata, unsigned tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

__global__ void reduce(int *out, const int *in) {
  __requires((blockDim.x & (blockDim.x - 1)) == 0 && blockDim.x >= 64);
  __shared__ int sdata[MAX];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * blockDim.x) + tid;
  sdata[tid] = in[i] + in[i + blockDim.x];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32)
    warp_reduce(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
