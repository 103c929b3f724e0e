// A buggy sequential-addressing reduction: the loop stops at s > 1, so the
// last round (thread 0 adding sdata[1]) is missing.

#define BLOCK 64

__global__ void reduce(int *out, const int *in) {
  __shared__ int sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 1; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
