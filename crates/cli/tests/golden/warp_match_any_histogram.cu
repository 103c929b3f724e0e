// expect: verified
// flags: --blockDim=128 --gridDim=4
// Histogram with warp aggregation: the lanes holding the same bin find each
// other with __match_any_sync, and the lowest adds their count atomically.
__global__ void histogram(const unsigned *data, unsigned *bins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned bin = data[i] & 15;
  unsigned active = __activemask();
  unsigned peers = __match_any_sync(active, bin);
  unsigned lane = threadIdx.x & 31;
  if (lane == __ffs(peers) - 1) atomicAdd(&bins[bin], __popc(peers));
}
