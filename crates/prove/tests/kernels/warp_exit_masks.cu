// Lanes 16-31 of each warp return, then the others pass a warp barrier or
// a vote: with a mask naming the exited lanes (undefined in CUDA), and with
// a mask naming exactly the lanes that stay.
__global__ void sync_names_exited(int *out) {
  if ((threadIdx.x & 31) >= 16) return;
  __syncwarp();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
__global__ void sync_names_stayers(int *out) {
  if ((threadIdx.x & 31) >= 16) return;
  __syncwarp(0xffffu);
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
__global__ void vote_names_exited(const int *in, unsigned *out) {
  if ((threadIdx.x & 31) >= 16) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __ballot_sync(0xffffffffu, in[i] > 0);
}
__global__ void vote_names_stayers(const int *in, unsigned *out) {
  if ((threadIdx.x & 31) >= 16) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __ballot_sync(0xffffu, in[i] > 0);
}
