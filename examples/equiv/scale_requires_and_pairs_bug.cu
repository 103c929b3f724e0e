// scale_requires_and_pairs.cu with one bug: the second element of a pair
// is computed from the first one's input.

__global__ void scale(int *out, const int *in, unsigned n, unsigned m) {
  __requires(n % 2 == 0 && m > 0);
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n / 2; i += stride) {
    out[2 * i] = 3 * in[2 * i] + m;
    out[2 * i + 1] = 3 * in[2 * i] + m;
  }
}
