// expect: verified
// flags: --blockDim=256 --gridDim=8
// Each block looks for a key in its slice: the threads whose key matches
// record their own index in a per-thread slot after the block has cleared
// the slots, and thread 0 takes the smallest index after a barrier.
__global__ void find_key(const int *keys, int target, int *first) {
  __shared__ int slot[256];
  slot[threadIdx.x] = 0x7fffffff;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (keys[i] == target) slot[threadIdx.x] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    int best = 0x7fffffff;
    for (int t = 0; t < 256; t++) best = min(best, slot[t]);
    first[blockIdx.x] = best;
  }
}
