// The reduction below for any power-of-two block size up to 1024 threads
// (the precondition states it), instead of the fixed BLOCK = 64.
// Sum reduction, interleaved addressing (Harris's "reduction #1"): in round
// s, thread t with t % (2s) == 0 adds its neighbour at distance s. Highly
// divergent warps. Each block writes the sum of its blockDim.x inputs.
// Integers: addition is associative, so every reduction order agrees.

#define MAX 1024

__global__ void reduce(int *out, const int *in) {
  __requires((blockDim.x & (blockDim.x - 1)) == 0);
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
