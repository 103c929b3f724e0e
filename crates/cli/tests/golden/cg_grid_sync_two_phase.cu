// expect: verified
// flags: --blockDim=128 --gridDim=4
// Two phases over the whole grid of a cooperative launch: each thread
// writes its element, the grid synchronises, and each thread reads its
// right neighbour's element, which another block may have written.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void two_phase(float *a, float *b, unsigned n) {
  cg::grid_group grid = cg::this_grid();
  unsigned i = grid.thread_rank();
  if (i < n) a[i] = 2.0f * b[i];
  grid.sync();
  if (i < n) b[i] = a[(i + 1) % n];
}
