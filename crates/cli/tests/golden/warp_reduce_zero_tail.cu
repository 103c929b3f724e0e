// expect: verified
// flags: --blockDim=128 --gridDim=4
// The fix of warp_reduce_early_exit: threads past the end stay and offer
// zero, so every lane the full mask names executes each shuffle.
__global__ void sum_zero_tail(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(out, v);
}
