// expect: verified
// flags: --blockDim=128 --gridDim=4
// A back-off sleep between a thread's write and the block barrier.
__global__ void backoff(int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = (int)t;
  __nanosleep(100);
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[127 - t];
}
