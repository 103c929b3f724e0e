// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Queue slots inside loops: `compact` keeps the indices of positive
// elements in a grid-stride loop, and `expand` writes its index as many
// times as its count says (a run-length expansion). Each slot comes
// from one counter's atomicAdd, in whichever iteration it is met; the
// values the increments return are distinct, so the writes do not race.

__global__ void compact(const int *in, int *out, int *count, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (in[i] > 0) {
      int slot = atomicAdd(count, 1);
      out[slot] = i;
    }
  }
}

__global__ void expand(const int *counts, int *out, unsigned *tail, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int k = 0; k < counts[i]; ++k) {
      unsigned slot = atomicAdd(tail, 1u);
      out[slot] = i;
    }
  }
}
