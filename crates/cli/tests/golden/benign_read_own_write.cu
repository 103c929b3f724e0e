// expect: verified
// flags: --blockDim=64 --gridDim=2
// Every thread writes 7 to last[0] and then reads last[0] back. The read
// races with the other threads' writes, but benignly (GPUVerify's
// write-read benign flag): the reader wrote the same value there itself
// since the last barrier, so it reads 7 in every interleaving.

__global__ void settle(int *last, int *out) {
  __shared__ int seen;
  seen = 7;
  out[blockIdx.x * blockDim.x + threadIdx.x] = seen;
  last[0] = 7;
  out[blockIdx.x * blockDim.x + threadIdx.x] += last[0];
}
