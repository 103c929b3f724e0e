// The scalar reference: out[i] = k * in[i] for i < n, one element per
// thread of a launch with at least n / 4 threads (the vectorized versions
// handle four elements per thread).

__global__ void scale(float *out, const float *in, float k, unsigned n) {
  __requires(n % 4 == 0);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned j = 0; j < 4; j++) {
    unsigned i = 4 * t + j;
    if (i < n)
      out[i] = k * in[i];
  }
}
