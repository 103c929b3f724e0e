// expect: errors
// flags: --blockDim=256 --gridDim=16
// `block_atomic_max_pairs.cu` with one bug: two blocks share each slot
// (`blockIdx.x / 2`), and `atomicMax_block` is atomic only among one
// block's threads, so the pair of blocks races on it.
__global__ void block_max(const int *in, int *best, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMax_block(&best[blockIdx.x / 2], in[i]);
  }
}
