// reduce_strided_anysize.cu with a bug in the round: the partner's index
// is computed from s * tid instead of 2 * s * tid, so threads add the
// wrong elements.

#define MAX 1024

__global__ void reduce(int *out, const int *in) {
  __shared__ int sdata[MAX];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[s * tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
