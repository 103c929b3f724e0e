// expect: verified
// flags: --blockDim=128 --gridDim=4
// Per-warp sums with the sm_80 warp reduction __reduce_add_sync; lane 0
// writes its warp's sum.
__global__ void warp_totals(const unsigned *in, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = __reduce_add_sync(0xffffffffu, in[i]);
  if ((threadIdx.x & 31) == 0) out[i / 32] = s;
}
