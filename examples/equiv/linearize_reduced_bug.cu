// A wrong strength reduction: / 8 became >> 2.

__global__ void f(unsigned *out, const unsigned *in, unsigned w, unsigned h) {
  unsigned x = threadIdx.x + blockDim.x * blockIdx.x;
  unsigned y = threadIdx.y + blockDim.y * blockIdx.y;
  if (y < h && x < w) {
    unsigned k = x + w * y;
    unsigned v = in[k];
    out[k] = (v << 1) + (v >> 2);
  }
}
