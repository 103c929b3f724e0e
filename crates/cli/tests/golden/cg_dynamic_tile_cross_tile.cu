// expect: errors
// flags: --blockDim=256 --gridDim=4
// As dyntile_ok, but the read crosses into the next tile, which a tile's
// own sync does not order.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void tile_rotate(const float *in, float *out) {
  __shared__ float buf[256];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, 16);
  unsigned t = block.thread_rank();
  buf[t] = in[blockIdx.x * blockDim.x + t];
  tile.sync();
  out[blockIdx.x * blockDim.x + t] = buf[(t + 16) % blockDim.x];
}
