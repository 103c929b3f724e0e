// expect: verified
// flags: --blockDim=128 --gridDim=4
// Lanes 0-15 exchange through shared memory, ordered by __syncwarp with
// exactly their mask.
__global__ void swap8(const int *in, int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  unsigned lane = t & 31;
  if (lane < 16) {
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncwarp(0x0000ffffu);
    out[blockIdx.x * blockDim.x + t] = s[t ^ 8];
  }
}
