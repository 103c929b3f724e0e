// expect: errors
// flags: --blockDim=128 --gridDim=4
// As match_ok, but the leader's add is not atomic: leaders of different
// warps race on one bin.
__global__ void histogram(const unsigned *data, unsigned *bins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned bin = data[i] & 15;
  unsigned active = __activemask();
  unsigned peers = __match_any_sync(active, bin);
  unsigned lane = threadIdx.x & 31;
  if (lane == __ffs(peers) - 1) bins[bin] += __popc(peers);
}
