// A wrong rewrite of saxpy.cu: (a * x + y) * 2 distributed into
// a * x * 2 + y * 2 and then reassociated as a * (x * 2) + y * 2. Real
// arithmetic allows it; IEEE rounding does not (it differs when a * x + y
// cancels, or when a * x * 2 overflows).

__global__ void saxpy(float *out, const float *x, const float *y, float a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * (x[i] * 2.0f) + y[i] * 2.0f;
}
