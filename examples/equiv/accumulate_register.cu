// The same accumulation with one read and one write of c (the partial sum
// kept in a register).

__global__ void accumulate(float *c, const float *x, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = c[i] + x[i];
    c[i] = s + x[i + n];
  }
}
