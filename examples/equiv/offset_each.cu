// out[i] = a * in[i] + b for the first n elements, one element per thread,
// on a launch with at least n threads.

__global__ void affine(float *out, const float *in, float a, float b, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * in[i] + b;
}
