// expect: errors
// flags: --blockDim=256 --gridDim=1024
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Each 16-thread tile exchanges values through shared memory, ordered by
// the tile's own sync.
// BUG: each thread reads from the other tile of its warp, which the tile sync does not order.
__global__ void tile16_exchange(int *out, const int *in) {
  __shared__ int s[256];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  tile.sync();
  out[blockIdx.x * blockDim.x + t] = s[t ^ 16];
}
