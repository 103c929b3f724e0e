// Sum reduction, interleaved addressing (Harris's "reduction #1"): in round
// s, thread t with t % (2s) == 0 adds its neighbour at distance s. Highly
// divergent warps. Each block writes the sum of its BLOCK inputs.
// Integers: addition is associative, so every reduction order agrees.

#define BLOCK 64

__global__ void reduce(int *out, const int *in) {
  __shared__ int sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned s = 1; s < BLOCK; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
