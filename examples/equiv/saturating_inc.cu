// The reference: each thread increments its element, saturating at the
// largest unsigned value.

__global__ void saturating_inc(unsigned *out, const unsigned *in, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] == 0xffffffffu ? in[i] : in[i] + 1;
}
