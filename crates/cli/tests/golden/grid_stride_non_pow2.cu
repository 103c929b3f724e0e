// expect: verified
// flags: --blockDim=96 --gridDim=5 --mode=prove
// A grid-stride loop whose step (480 threads) is not a power of two: the
// stride rule's congruence candidate `i % stride == initial % stride`
// proves that two threads never meet on an element.
__global__ void scale(const float *in, float *out, unsigned n) {
  __requires(n <= 0x7fffffff);
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = 2.0f * in[i];
  }
}
