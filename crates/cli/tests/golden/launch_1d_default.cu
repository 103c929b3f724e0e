// expect: verified
// flags:
// With no sizing flags, a kernel that reads only the x dimension of its ids
// is checked for every 1-D launch: each thread scales its own element.
__global__ void scale(float *v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = s * v[i];
  }
}
