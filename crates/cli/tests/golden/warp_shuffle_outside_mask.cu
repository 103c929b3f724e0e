// expect: errors
// flags: --blockDim=128 --gridDim=4
// Lanes 0-15 shuffle with a mask of lanes 0-15 but read from lanes 16-31,
// which are outside the mask: the value is undefined.
__global__ void halves(const int *in, int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  int v = in[i];
  if (lane < 16) {
    int w = __shfl_sync(0x0000ffffu, v, lane + 16);
    out[i] = v + w;
  }
}
