// Sum reduction, strided indexing (Harris's "reduction #2"): thread t
// works on index 2*s*t, so the active threads are contiguous (no divergence
// within a warp) but shared-memory accesses conflict on banks.

#define BLOCK 64

__global__ void reduce(int *out, const int *in) {
  __shared__ int sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned s = 1; s < BLOCK; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < BLOCK)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
