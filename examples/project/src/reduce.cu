// A block-wide tree reduction that forgets the barrier inside its loop: in
// the second round thread 0 reads partial[1] while thread 1 may still be
// writing it (a data race on `partial`).
#include "tile.cuh"

__global__ void reduce(const int *in, int *out) {
  __shared__ int partial[BLOCK];
  unsigned t = threadIdx.x;
  partial[t] = in[global_index()];
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (t < stride) {
      partial[t] += partial[t + stride];
    }
  }
  if (t == 0) {
    out[blockIdx.x] = partial[0];
  }
}
