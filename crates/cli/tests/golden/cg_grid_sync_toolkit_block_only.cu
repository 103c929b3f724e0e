// expect: errors
// flags: --blockDim=128 --gridDim=4 --cuda-headers=toolkit
// As cg_grid_sync_toolkit, but the blocks meet only at a block barrier: the
// first thread reads other blocks' partial sums while they are written.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void grid_total(const int *in, int *partial, int *total) {
  __shared__ int block_sum;
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) block_sum = 0;
  block.sync();
  atomicAdd(&block_sum, in[grid.thread_rank()]);
  block.sync();
  if (block.thread_rank() == 0) partial[blockIdx.x] = block_sum;
  block.sync();
  if (grid.thread_rank() == 0) {
    int s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) s += partial[b];
    *total = s;
  }
}
