// expect: errors
// As cg_tile_rank_1d, but each warp's first lane adds its sum to the
// total with a plain read-modify-write: the first lanes of two warps race.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void sum_all(const float *in, float *total, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += warp.shfl_down(v, offset);
  if (warp.thread_rank() == 0)
    *total += v;
}
