// One element per thread: out[i] = in[i] * in[i] + 1 for i < n, on a
// launch that covers the input (n at most the grid's thread count).

__global__ void square(int *out, const int *in, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * in[i] + 1;
}
