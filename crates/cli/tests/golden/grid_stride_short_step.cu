// expect: errors
// flags: --blockDim=96 --gridDim=5
// The step is one element short of the number of threads (479, not 480):
// thread 0's second element is the last thread's first.
__global__ void scale(const float *in, float *out, unsigned n) {
  __requires(n <= 0x7fffffff);
  unsigned stride = blockDim.x * gridDim.x - 1;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = 2.0f * in[i];
  }
}
