// Sum reduction, interleaved addressing (Harris's "reduction #1"), for any
// block size up to 1024 threads: no precondition restricts blockDim.x, so
// the loop's trip count is symbolic and the two kernels' loops are aligned
// (PUG_para) instead of unrolled. In round s, thread t with t % (2s) == 0
// adds its neighbour at distance s.

#define MAX 1024

__global__ void reduce(int *out, const int *in) {
  __shared__ int sdata[MAX];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
