// expect: verified
// flags: --blockDim=128 --gridDim=64
// Each thread owns the bins i == threadIdx.x (mod blockDim.x) of a block's
// shared array: it clears them, adds its block's inputs to them and
// writes them out in reverse, with a barrier between the loops. Within each
// loop no barrier separates the iterations, so race freedom rests on what
// the access logs hold at the loop head: every logged offset is one of the
// thread's own.
#define BINS 1024
__global__ void shared_bins_strided(const int *in, int *out) {
  __shared__ int bins[BINS];
  const int *mine = in + blockIdx.x * BINS;
  for (int i = threadIdx.x; i < BINS; i += blockDim.x)
    bins[i] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < BINS; i += blockDim.x)
    bins[i] += mine[i];
  __syncthreads();
  for (int i = threadIdx.x; i < BINS; i += blockDim.x)
    out[blockIdx.x * BINS + i] = bins[BINS - 1 - i];
}
