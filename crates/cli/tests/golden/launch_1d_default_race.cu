// expect: errors
// flags:
// As launch_1d_default.cu, but every thread also writes v[0] when n is
// odd: a race in every 1-D launch of two threads or more.
__global__ void scale(float *v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = s * v[i];
  }
  if (n % 2 == 1) {
    v[0] = s;
  }
}
