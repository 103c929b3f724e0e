// expect: errors
// flags: --blockDim=64 --gridDim=2
// The upper half of each warp returns; the lower half then passes a
// __syncwarp() whose (full) mask names the lanes that have exited.
__global__ void low_half_exchange(int *out) {
  __shared__ int s[64];
  unsigned lane = threadIdx.x & 31;
  if (lane >= 16)
    return;
  s[threadIdx.x] = threadIdx.x * 7;
  __syncwarp();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x ^ 1];
}
