// BUG: the first tile sums one partial sum too few.
// The warp-shuffle reduction of reduce_shuffle.cu written with cooperative
// groups: each 32-thread tile sums its values with cg::reduce, the tiles'
// sums go through shared memory, and the first tile sums them. Any
// power-of-two block size of at least 64 threads; each block sums
// 2 * blockDim.x inputs.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void reduce(int *out, const int *in) {
  __requires((blockDim.x & (blockDim.x - 1)) == 0 && blockDim.x >= 64);
  __shared__ int partial[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned i = blockIdx.x * (2 * blockDim.x) + threadIdx.x;
  int v = cg::reduce(tile, in[i] + in[i + blockDim.x], cg::plus<int>());
  if (tile.thread_rank() == 0)
    partial[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    v = tile.thread_rank() + 1 < tile.meta_group_size() ? partial[tile.thread_rank()] : 0;
    v = cg::reduce(tile, v, cg::plus<int>());
    if (tile.thread_rank() == 0)
      out[blockIdx.x] = v;
  }
}
