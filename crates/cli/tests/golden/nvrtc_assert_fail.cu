// expect: errors
// flags: --blockDim=128 --gridDim=4
// nvrtc_assert.cu with one bug: the assertion expects every thread in the
// first warp, which the second warp of each block breaks.
extern "C" __global__ void digits(unsigned *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned d = i % 10u;
    assert(threadIdx.x < 32u);
    out[i] = d;
  }
}
