// The reference in-place update: y = a * x + y, one element per thread.

__global__ void axpy(float *y, const float *x, float a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
