// expect: errors
// flags: --blockDim=64 --gridDim=1
// Each half of a warp passes a __syncwarp whose mask names only its own
// half, so the low half does not wait for the high half: reading the
// other half's element races with its write (the mask is kept in KIR).
__global__ void half_sync(int *out) {
  __shared__ int s[64];
  unsigned lane = threadIdx.x & 31;
  s[threadIdx.x] = threadIdx.x * 3;
  unsigned mask = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  __syncwarp(mask);
  out[threadIdx.x] = s[threadIdx.x ^ 16];
}
