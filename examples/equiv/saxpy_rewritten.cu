// saxpy.cu rewritten: the operands of + and * swapped, the scaling by two
// an addition of the value to itself, and the product computed with the
// sign flipped twice. In IEEE arithmetic each of these gives the same bits
// (`t * 2` and `t + t` round the same exact value), which only
// `--float=ieee` can show: as uninterpreted functions, `*` and `+` are
// unrelated.

__global__ void saxpy(float *out, const float *x, const float *y, float a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = y[i] + (-(-x[i]) * a);
    out[i] = t + t;
  }
}
