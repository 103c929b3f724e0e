// expect: verified
// flags: --blockDim=128 --gridDim=4
// Written for NVRTC, with no #include at all: nvcc and NVRTC declare
// assert() without one (cuda_runtime.h reaches <assert.h>), so lockstep
// compiles the file the same way, and the assertion holds for every thread.
extern "C" __global__ void digits(unsigned *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned d = i % 10u;
    assert(d < 10u);
    out[i] = d;
  }
}
