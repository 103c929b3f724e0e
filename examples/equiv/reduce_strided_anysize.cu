// reduce_interleaved_anysize.cu with strided indexing (Harris's
// "reduction #2"): thread t works on index 2*s*t, so the active threads
// are contiguous. The loops have the same counter, and each round writes
// the same elements with the same sums, which is what the aligned-loop
// proof shows for an arbitrary round.

#define MAX 1024

__global__ void reduce(int *out, const int *in) {
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
