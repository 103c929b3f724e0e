// Accumulation into an output, twice per thread: c[i] += x[i] + x[i + n]
// as two read-modify-write updates.

__global__ void accumulate(float *c, const float *x, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] += x[i];
    c[i] += x[i + n];
  }
}
