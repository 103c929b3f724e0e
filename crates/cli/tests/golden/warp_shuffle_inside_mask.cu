// expect: verified
// flags: --blockDim=128 --gridDim=4
// Lanes 0-15 swap halves within their own mask.
__global__ void halves(const int *in, int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  int v = in[i];
  if (lane < 16) {
    int w = __shfl_sync(0x0000ffffu, v, (lane + 8) & 15);
    out[i] = v + w;
  }
}
