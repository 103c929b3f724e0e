// The reduction below for any power-of-two block size up to 1024 threads
// (the precondition states it), instead of the fixed BLOCK = 64.
// Sum reduction, strided indexing (Harris's "reduction #2"): thread t
// works on index 2*s*t, so the active threads are contiguous (no divergence
// within a warp) but shared-memory accesses conflict on banks.

#define MAX 1024

__global__ void reduce(int *out, const int *in) {
  __requires((blockDim.x & (blockDim.x - 1)) == 0);
  __shared__ int sdata[MAX];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
