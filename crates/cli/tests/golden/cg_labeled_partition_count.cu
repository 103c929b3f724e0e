// expect: verified
// flags: --blockDim=128 --gridDim=4
// Lanes of a warp are grouped by a 2-bit key; each group's first lane
// adds the group's size to the key's counter atomically.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void key_counts(const int *keys, unsigned *counts) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int key = keys[blockIdx.x * blockDim.x + threadIdx.x] & 3;
  cg::coalesced_group same = cg::labeled_partition(warp, key);
  if (same.thread_rank() == 0) atomicAdd(&counts[key], same.size());
}
