// expect: errors
// flags: --blockDim=96 --gridDim=2
// Lanes 24-31 of each warp return before a full-mask ballot that counts
// the positive inputs of the warp: the mask names lanes that have exited.
__global__ void count_positive_exit(const int *in, unsigned *counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  if (lane >= 24)
    return;
  unsigned votes = __ballot_sync(0xffffffffu, in[i] > 0);
  if (lane == 0)
    counts[i / 32] = __popc(votes);
}
