// Sum reduction, sequential addressing (Harris's "reduction #3"): in each
// round the lower half of the active threads adds the upper half, which is
// conflict-free.

#define BLOCK 64

__global__ void reduce(int *out, const int *in) {
  __shared__ int sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
