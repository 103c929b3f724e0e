// A wrong reduction #4: the second input of each thread is read from
// i + blockDim.x - 1 instead of i + blockDim.x, so one input is added
// twice and another never.

#define MAX 1024

__global__ void reduce(int *out, const int *in) {
  __requires((blockDim.x & (blockDim.x - 1)) == 0 && blockDim.x >= 64);
  __shared__ int sdata[MAX];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * blockDim.x) + tid;
  sdata[tid] = in[i] + in[i + blockDim.x - 1];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
