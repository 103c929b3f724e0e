// expect: verified
// Each warp of a 1-D launch sums its inputs with tile shuffles and its
// first lane adds the warp's sum to the total atomically. The kernel's own
// code reads only x; cooperative groups' thread_rank() folds in y and z,
// which in a 1-D launch are 0: it is checked for every 1-D launch.
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
    atomicAdd(total, v);
}
