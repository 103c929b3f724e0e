// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Stream compaction: each kept element takes a slot from a counter with
// atomicAdd; the values the increments return are distinct, so the writes
// to out do not race.

__global__ void compact(const int *in, int *out, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    unsigned slot = atomicAdd(count, 1u);
    out[slot] = in[i];
  }
}
