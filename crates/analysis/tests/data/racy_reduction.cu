// expect: errors
// flags: --blockDim=128 --gridDim=1
//
// A tree reduction in shared memory that forgets the barrier inside the loop:
// in the second round, thread 0 reads partial[1], which thread 1 may still be
// writing. This is a read/write data race on `partial`.

#define BLOCK 128

__global__ void sum(const int *in, int *out) {
  __shared__ int partial[BLOCK];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();

  for (unsigned stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (t < stride) {
      partial[t] += partial[t + stride];
    }
    // Missing: __syncthreads();
  }

  if (t == 0) {
    out[blockIdx.x] = partial[0];
  }
}
