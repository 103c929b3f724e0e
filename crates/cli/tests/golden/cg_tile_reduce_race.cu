// expect: errors
// flags: --blockDim=256 --gridDim=64
// Each warp of a block sums its lanes' elements with cooperative groups'
// cg::reduce over a 32-thread tile; the tile's first lane writes the warp's
// sum to the block's slot: the warps of a block race on it.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void warp_sums(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int sum = cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() == 0) {
    out[blockIdx.x] = sum;
  }
}
