// expect: verified
// flags: --blockDim=1000 --gridDim=1000 --mode=prove
// A grid-stride loop and a slot per thread, at a launch whose sizes are
// not powers of two. Two threads' global ids `blockIdx.x * 1000 +
// threadIdx.x` differ (a lemma of the launch: z3 took over a second to
// derive it from the multiplication), and the stride candidate's
// remainder reaches the race checks as constants with congruence lemmas.
__global__ void scale_and_mark(const float *in, float *out, unsigned *mark, unsigned n) {
  __requires(n <= 0x7fffffff);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned i = gid; i < n; i += stride) {
    out[i] = 2.0f * in[i];
  }
  mark[gid] = gid;
}
