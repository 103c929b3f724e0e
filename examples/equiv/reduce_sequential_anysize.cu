// reduce_sequential_any.cu without its precondition: any block size up to
// 1024 threads. Its loop counts down, so it does not align with the
// interleaved reduction's: the proof for any block size does not apply.
// Sum reduction, sequential addressing (Harris's "reduction #3"): in each
// round the lower half of the active threads adds the upper half, which is
// conflict-free.

#define MAX 1024

__global__ void reduce(int *out, const int *in) {
  __shared__ int sdata[MAX];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
