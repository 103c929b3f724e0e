// A branch-free rewrite of saturating_inc.cu with an off-by-one: it stops
// incrementing one value too early, so 0xfffffffe stays 0xfffffffe. Only
// that one input value shows it, which random testing does not hit; the
// solver finds it.

__global__ void saturating_inc(unsigned *out, const unsigned *in, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + (in[i] < 0xfffffffeu);
}
