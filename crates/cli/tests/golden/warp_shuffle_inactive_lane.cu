// expect: errors
// flags: --blockDim=128 --gridDim=4
// The mask names the whole warp, but only lanes 0-15 reach the shuffle and
// they read from lanes 16-31, which are inactive.
__global__ void halves(const int *in, int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  int v = in[i];
  if (lane < 16) {
    int w = __shfl_xor_sync(0xffffffffu, v, 16);
    out[i] = v + w;
  }
}
