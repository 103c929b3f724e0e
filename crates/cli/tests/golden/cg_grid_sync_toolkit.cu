// expect: verified
// flags: --blockDim=128 --gridDim=4 --cuda-headers=toolkit
// A grid-wide sum in two phases with the CUDA toolkit's cooperative groups:
// each block writes its partial sum, the grid synchronises (the toolkit's
// grid_group::sync, which spins on the cooperative launch's workspace, is a
// grid barrier), and block 0's first thread adds the partial sums.
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
  grid.sync();
  if (grid.thread_rank() == 0) {
    int s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) s += partial[b];
    *total = s;
  }
}
