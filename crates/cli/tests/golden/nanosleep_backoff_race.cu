// expect: errors
// flags: --blockDim=128 --gridDim=4
// The sleep is not a barrier: reading another thread's slot after it races.
__global__ void backoff(int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = (int)t;
  __nanosleep(100);
  out[blockIdx.x * blockDim.x + t] = s[127 - t];
}
