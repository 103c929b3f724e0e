// scale_stride.cu with two neighbouring elements per iteration: iteration
// i handles elements 2i and 2i + 1 (the second only when it is below n),
// for i below n / 2 rounded up. Any launch.

__global__ void scale(int *out, const int *in, unsigned n) {
  unsigned stride = blockDim.x * gridDim.x;
  unsigned pairs = n / 2 + n % 2;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < pairs; i += stride) {
    unsigned j = 2 * i;
    out[j] = 3 * in[j] + 1;
    if (j + 1 < n)
      out[j + 1] = 3 * in[j + 1] + 1;
  }
}
