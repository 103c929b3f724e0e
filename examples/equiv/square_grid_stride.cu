// The same map as a grid-stride loop, the form that works for any launch.
// On a launch that covers the input each thread runs one iteration.

__global__ void square(int *out, const int *in, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] * in[i] + 1;
}
