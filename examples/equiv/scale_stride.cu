// out = 3 * in + 1 over n elements with a grid-stride loop: any launch,
// one element per iteration.

__global__ void scale(int *out, const int *in, unsigned n) {
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = 3 * in[i] + 1;
}
