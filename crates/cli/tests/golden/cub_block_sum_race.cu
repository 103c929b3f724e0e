// expect: errors
// flags: --blockDim=128 --gridDim=8
// As cub_block_sum.cu, but thread 0 of every block writes out[0]: the blocks
// race on it.
#include <cub/block/block_reduce.cuh>

__global__ void block_sums(const float *in, float *out) {
  typedef cub::BlockReduce<float, 128> BlockReduce;
  __shared__ typename BlockReduce::TempStorage storage;
  float sum = BlockReduce(storage).Sum(in[blockIdx.x * 128 + threadIdx.x]);
  if (threadIdx.x == 0) {
    out[0] = sum;
  }
}
