// expect: verified
// flags: --blockDim=64 --gridDim=2
// The upper half of each warp returns; the lower half synchronises with a
// mask naming exactly its own lanes, so every named lane takes part.
__global__ void low_half_exchange_masked(int *out) {
  __shared__ int s[64];
  unsigned lane = threadIdx.x & 31;
  if (lane >= 16)
    return;
  s[threadIdx.x] = threadIdx.x * 7;
  __syncwarp(0x0000ffffu);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x ^ 1];
}
