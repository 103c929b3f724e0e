// The reference for reduction #4: Harris's #3 (sequential addressing) over
// 2 * blockDim.x inputs per block, for any power-of-two block size of at
// least 64 threads. Each thread loads two inputs into shared memory; the
// tree starts with s = blockDim.x.

#define MAX 2048

__global__ void reduce(int *out, const int *in) {
  __requires((blockDim.x & (blockDim.x - 1)) == 0 && blockDim.x >= 64);
  __shared__ int sdata[MAX];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * blockDim.x) + tid;
  sdata[tid] = in[i];
  sdata[tid + blockDim.x] = in[i + blockDim.x];
  __syncthreads();
  for (unsigned s = blockDim.x; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
