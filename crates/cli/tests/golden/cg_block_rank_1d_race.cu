// expect: errors
// As cg_block_rank_1d without block.sync(): a thread reads the slot
// another thread of its block writes.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reverse_slices(const int *in, int *out) {
  __shared__ int buf[512];
  cg::thread_block block = cg::this_thread_block();
  __requires(blockDim.x <= 512);
  unsigned r = block.thread_rank();
  unsigned base = blockIdx.x * blockDim.x;
  buf[r] = in[base + r];
  out[base + r] = buf[blockDim.x - 1 - r];
}
