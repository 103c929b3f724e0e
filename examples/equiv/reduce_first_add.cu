// Harris's reduction #4 for any power-of-two block size of at least 64
// threads: sequential addressing, with the first add during the global
// load (each block sums 2 * blockDim.x inputs, half the blocks of #3).

#define MAX 1024

__global__ void reduce(int *out, const int *in) {
  __requires((blockDim.x & (blockDim.x - 1)) == 0 && blockDim.x >= 64);
  __shared__ int sdata[MAX];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * blockDim.x) + tid;
  sdata[tid] = in[i] + in[i + blockDim.x];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
