// expect: errors
// flags: --blockDim=256 --gridDim=1024
// The lanes in range build their mask with a ballot and exchange values
// with their neighbour, ordered by a __syncwarp over that mask.
// BUG: the neighbour is in the next warp, which the warp barrier does not
// order (a race between the warps).
__global__ void ballot_mask_sync(int *out, const int *in, int n) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  unsigned m = __ballot_sync(0xffffffffu, i < n);
  if (i < n) {
    s[t] = in[i];
    __syncwarp(m);
    int j = t ^ 32;
    out[i] = (m >> (j & 31)) & 1 ? s[j] : 0;
  }
}
