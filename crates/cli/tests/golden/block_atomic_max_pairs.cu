// expect: verified
// flags: --blockDim=256 --gridDim=16
// Each block keeps the largest value it sees in its own slot of `best`,
// with `atomicMax_block` (atomic among the block's threads only).
__global__ void block_max(const int *in, int *best, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMax_block(&best[blockIdx.x], in[i]);
  }
}
