// scale_requires_and.cu with two neighbouring elements per iteration:
// iteration i handles elements 2i and 2i + 1 for i below n / 2, which
// covers every element because the precondition makes n even. Any launch.

__global__ void scale(int *out, const int *in, unsigned n, unsigned m) {
  __requires(n % 2 == 0 && m > 0);
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n / 2; i += stride) {
    out[2 * i] = 3 * in[2 * i] + m;
    out[2 * i + 1] = 3 * in[2 * i + 1] + m;
  }
}
