// The same in-place update with the operands of + and * swapped, as a
// compiler or a person may write it.

__global__ void axpy(float *y, const float *x, float a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = y[i] + x[i] * a;
}
