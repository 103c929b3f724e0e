// expect: errors
// flags: --blockDim=128 --gridDim=4
// As syncwarp_ok, but the mask names only lanes 0-7 while lanes 0-15 call
// __syncwarp: lanes 8-15 are not in the mask they pass.
__global__ void swap8(const int *in, int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  unsigned lane = t & 31;
  if (lane < 16) {
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncwarp(0x000000ffu);
    out[blockIdx.x * blockDim.x + t] = s[t ^ 8];
  }
}
