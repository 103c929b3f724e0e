// expect: errors
// flags: --blockDim=128 --gridDim=4
// As coalesced_ok, but the slot ignores the base the group's leader took:
// lanes of different warps write the same slots.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void keep_some(const int *in, int *out, unsigned *count) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0 || i % 3 != 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned base = 0;
    if (g.thread_rank() == 0) base = atomicAdd(count, g.size());
    base = g.shfl(base, 0);
    out[g.thread_rank()] = (int)(i + base);
  }
}
