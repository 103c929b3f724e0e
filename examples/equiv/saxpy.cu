// The reference: out = a * x + y, then scaled by two, with a separate
// multiplication and addition.

__global__ void saxpy(float *out, const float *x, const float *y, float a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (a * x[i] + y[i]) * 2.0f;
}
