// expect: errors
// flags: --blockDim=128 --gridDim=4
// As redux_ok, but two lanes of each warp write the warp's slot.
__global__ void warp_totals(const unsigned *in, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = __reduce_add_sync(0xffffffffu, in[i]);
  if ((threadIdx.x & 15) == 0) out[i / 32] = s;
}
