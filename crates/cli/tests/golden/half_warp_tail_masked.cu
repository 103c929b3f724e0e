// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Each warp sums its 32 values; the last steps run on the low half-warp
// only, which synchronises with a mask naming just its 16 lanes.
__global__ void half_tail(int *out, const int *in) {
  __shared__ int s[256];
  unsigned t = threadIdx.x, lane = t & 31, base = t - lane;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncwarp();
  if (lane < 16) {
    s[t] += s[t + 16];
    __syncwarp(0x0000ffffu);
    if (lane < 8) s[t] += s[t + 8];
    __syncwarp(0x0000ffffu);
    if (lane < 4) s[t] += s[t + 4];
    __syncwarp(0x0000ffffu);
    if (lane < 2) s[t] += s[t + 2];
    __syncwarp(0x0000ffffu);
    if (lane == 0) out[(blockIdx.x * blockDim.x + t) / 32] = s[base] + s[base + 1];
  }
}
