// scale_stride_pairs.cu with one bug: the second element of a pair is
// computed from the first one's input.

__global__ void scale(int *out, const int *in, unsigned n) {
  unsigned stride = blockDim.x * gridDim.x;
  unsigned pairs = n / 2 + n % 2;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < pairs; i += stride) {
    unsigned j = 2 * i;
    out[j] = 3 * in[j] + 1;
    if (j + 1 < n)
      out[j + 1] = 3 * in[j] + 1;
  }
}
