// expect: verified
// flags: --blockDim=128 --gridDim=4
// Read-only loads through __ldg (the read-only data cache), one output per
// thread.
__global__ void offset(const int *__restrict__ in, int *__restrict__ out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __ldg(&in[i]) + (int)i;
}
