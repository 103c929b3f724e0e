// The buggy sequential-addressing reduction of reduce_sequential_bug.cu
// (the last round is missing) for any power-of-two block size.
// Sum reduction, sequential addressing (Harris's "reduction #3"): in each
// round the lower half of the active threads adds the upper half, which is
// conflict-free.

#define MAX 1024

__global__ void reduce(int *out, const int *in) {
  __requires((blockDim.x & (blockDim.x - 1)) == 0);
  __shared__ int sdata[MAX];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 1; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
