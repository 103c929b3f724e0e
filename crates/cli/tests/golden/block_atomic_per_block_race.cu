// expect: errors
// flags: --blockDim=128 --gridDim=8
// The per-block histograms of `block_atomic_per_block.cu` with one bug:
// every block updates the same row, with block-scoped atomics, which are
// atomic only among one block's threads, so two blocks race on it.
__global__ void block_histograms(const unsigned char *in, unsigned *hist, unsigned *totals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *mine = hist;
  if (i < n) {
    atomicAdd_block(&mine[in[i] % 16], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 16) {
    atomicAdd(&totals[threadIdx.x], atomicAdd_block(&mine[threadIdx.x], 0u));
  }
}
