// expect: verified
// flags: --blockDim=128 --gridDim=8
// Per-block histograms in global memory, updated with block-scoped
// atomics: each block owns its row of `hist`, so `atomicAdd_block` (atomic
// among one block's threads) is enough. A second pass by thread 0 of each
// block adds the row into the grid's totals with device-wide atomics.
__global__ void block_histograms(const unsigned char *in, unsigned *hist, unsigned *totals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *mine = hist + blockIdx.x * 16;
  if (i < n) {
    atomicAdd_block(&mine[in[i] % 16], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 16) {
    atomicAdd(&totals[threadIdx.x], atomicAdd_block(&mine[threadIdx.x], 0u));
  }
}
