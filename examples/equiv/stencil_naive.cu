// A 1-D three-point stencil, one output element per thread, read straight
// from global memory: out[i] = in[i] + 2 * in[i + 1] + in[i + 2] (the input
// has two halo elements past the end of the output).

__global__ void stencil(int *out, const int *in) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + 2 * in[i + 1] + in[i + 2];
}
