// expect: verified
// flags: --blockDim=96 --gridDim=2
// Lanes 24-31 of each warp return; the others vote with a mask naming
// lanes 0-23 only, each of which executes the ballot.
__global__ void count_positive_masked(const int *in, unsigned *counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  if (lane >= 24)
    return;
  unsigned votes = __ballot_sync(0x00ffffffu, in[i] > 0);
  if (lane == 0)
    counts[i / 32] = __popc(votes);
}
