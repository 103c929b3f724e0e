// expect: errors
// flags: --blockDim=128 --gridDim=4
// Read-only loads through __ldg, but two threads write each output.
__global__ void offset(const int *__restrict__ in, int *__restrict__ out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i / 2] = __ldg(&in[i]) + (int)i;
}
