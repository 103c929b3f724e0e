#define BLOCK 128
__global__ void reduce(const int *in, int *out) {
  __shared__ int partial[BLOCK];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s /= 2) {
    if (t < s) {
      partial[t] += partial[t + s];
    }
    __syncthreads();
  }
  if (t == 0) {
    out[blockIdx.x] = partial[0];
  }
}
