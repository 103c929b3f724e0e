// expect: verified
// flags: --blockDim=128 --gridDim=8
// Each block sums its 128 elements with CUB's BlockReduce (warp shuffles and
// shared memory); thread 0 writes the block's sum to the block's slot.
#include <cub/block/block_reduce.cuh>

__global__ void block_sums(const float *in, float *out) {
  typedef cub::BlockReduce<float, 128> BlockReduce;
  __shared__ typename BlockReduce::TempStorage storage;
  float sum = BlockReduce(storage).Sum(in[blockIdx.x * 128 + threadIdx.x]);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = sum;
  }
}
