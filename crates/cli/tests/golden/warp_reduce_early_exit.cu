// expect: errors
// flags: --blockDim=128 --gridDim=4
// Threads past the end return before a full-mask shuffle reduction: when n
// is not a multiple of 32, the last warp's mask names lanes that have
// exited, which CUDA leaves undefined (on the hardware the shuffle may
// wait for them for ever). The witness needs such an n.
__global__ void sum_early_exit(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(out, v);
}
