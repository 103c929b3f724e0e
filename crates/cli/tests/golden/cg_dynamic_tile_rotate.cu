// expect: verified
// flags: --blockDim=256 --gridDim=4
// A block split at run time into tiles of 16 threads; each tile
// synchronises on its own and reads only within the tile.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void tile_rotate(const float *in, float *out) {
  __shared__ float buf[256];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, 16);
  unsigned t = block.thread_rank();
  buf[t] = in[blockIdx.x * blockDim.x + t];
  tile.sync();
  unsigned first = t - tile.thread_rank();
  out[blockIdx.x * blockDim.x + t] = buf[first + (tile.thread_rank() + 1) % tile.size()];
}
