// A strided reduction with a racy index (s * tid instead of 2 * s * tid):
// thread 0 reads sdata[s] while thread 1 writes it in the same round.

#define BLOCK 64

__global__ void reduce(int *out, const int *in) {
  __shared__ int sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned s = 1; s < BLOCK; s *= 2) {
    unsigned index = s * tid;
    if (index + s < BLOCK)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
