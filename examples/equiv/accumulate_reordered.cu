// A wrong rewrite of the accumulation: the two terms are summed first,
// (x[i] + x[i + n]) + c[i], which rounds differently in floating point.

__global__ void accumulate(float *c, const float *x, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] += x[i] + x[i + n];
}
