// expect: possible-errors
// flags: --blockDim=1000 --gridDim=1000 --mode=prove
// As grid_stride_odd_launch.cu, but two neighbouring threads share a slot
// of `mark` and write different values to it: the launch lemmas must not
// hide the race.
__global__ void scale_and_mark(const float *in, float *out, unsigned *mark, unsigned n) {
  __requires(n <= 0x7fffffff);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned i = gid; i < n; i += stride) {
    out[i] = 2.0f * in[i];
  }
  mark[gid / 2] = gid;
}
