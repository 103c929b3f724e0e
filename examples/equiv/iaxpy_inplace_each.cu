// y[i] += a * x[i] over integers, one element per thread, on a launch with
// at least n threads.

__global__ void iaxpy(int *y, const int *x, int a, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}
