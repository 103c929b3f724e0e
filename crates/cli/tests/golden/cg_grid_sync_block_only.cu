// expect: errors
// flags: --blockDim=128 --gridDim=4
// As gridsync_ok, but the phases are separated only by a block barrier:
// the neighbour's element may belong to another block.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void two_phase(float *a, float *b, unsigned n) {
  cg::grid_group grid = cg::this_grid();
  unsigned i = grid.thread_rank();
  if (i < n) a[i] = 2.0f * b[i];
  cg::this_thread_block().sync();
  if (i < n) b[i] = a[(i + 1) % n];
}
