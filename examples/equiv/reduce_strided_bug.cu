// A buggy strided reduction: the loop stops one round early (s < BLOCK / 2),
// so the two halves of the block are never added together.

#define BLOCK 64

__global__ void reduce(int *out, const int *in) {
  __shared__ int sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned s = 1; s < BLOCK / 2; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < BLOCK)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
