// expect: verified
// flags: --blockDim=256 --gridDim=1024
// A block reduction whose last rounds run in one warp: the block loop's
// __syncthreads() separates its rounds, and in the tail each __syncwarp()
// separates a lane's read of its neighbour from the neighbour's write
// (each thread executes the tail's __syncwarp()s once: they pair up).

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
    __syncwarp();
    s[t] = v;
    __syncwarp();
    v += s[t + 8];
    __syncwarp();
    s[t] = v;
    __syncwarp();
  }
  if (t == 0) {
    out[blockIdx.x] = s[0];
  }
}
