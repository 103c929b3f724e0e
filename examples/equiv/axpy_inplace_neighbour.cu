// A wrong "in-place" update: each thread reads its right neighbour's
// element, which that neighbour overwrites (a different result, and a race
// on y between the threads).

__global__ void axpy(float *y, const float *x, float a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    y[i] = y[i + 1] + x[i] * a;
}
