// expect: errors
// flags: --blockDim=256 --gridDim=1024
// As warp_tail_reduce.cu, but the tail's second round writes without the
// __syncwarp() that separates it from the other lanes' reads: lane 0 reads
// s[16] while lane 16 writes it.

__global__ void block_sum(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned k = 128; k > 32; k >>= 1) {
    if (t < k) {
      s[t] += s[t + k];
    }
    __syncthreads();
  }
  if (t < 32) {
    float v = s[t] + s[t + 32];
    __syncwarp();
    s[t] = v;
    __syncwarp();
    v += s[t + 16];
    s[t] = v;
    __syncwarp();
  }
  if (t == 0) {
    out[blockIdx.x] = s[0];
  }
}
