// expect: errors
// flags: --blockDim=128 --gridDim=4
// As labeled_ok, but the leader's update is a plain read-modify-write:
// leaders of different warps race on one counter.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void key_counts(const int *keys, unsigned *counts) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int key = keys[blockIdx.x * blockDim.x + threadIdx.x] & 3;
  cg::coalesced_group same = cg::labeled_partition(warp, key);
  if (same.thread_rank() == 0) counts[key] += same.size();
}
