// out[i] = 3 * in[i] + 1 for the first n elements, one element per
// thread, on a launch that covers the input.

__global__ void triple(int *out, const int *in, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 3 * in[i] + 1;
}
