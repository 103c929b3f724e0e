// A wrong unrolled last warp: the step that adds sdata[tid + 4] is left
// out, so each block's sum misses some of its inputs.

#define MAX 1024

__device__ void warp_reduce(volatile int *sdata, unsigned tid) {
  int v = sdata[tid];
  v += sdata[tid + 32]; __syncwarp(); sdata[tid] = v; __syncwarp();
  v += sdata[tid + 16]; __syncwarp(); sdata[tid] = v; __syncwarp();
  v += sdata[tid + 8]; __syncwarp(); sdata[tid] = v; __syncwarp();
  v += sdata[tid + 2]; __syncwarp(); sdata[tid] = v; __syncwarp();
  v += sdata[tid + 1]; __syncwarp(); sdata[tid] = v;
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
