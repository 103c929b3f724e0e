// expect: verified
// A block copies its slice through shared memory, indexed by the block
// group's thread_rank() and synchronised with block.sync(); the global
// index uses blockIdx.x and blockDim.x. Checked with no sizes for every
// 1-D launch of up to 512 threads a block.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reverse_slices(const int *in, int *out) {
  __shared__ int buf[512];
  cg::thread_block block = cg::this_thread_block();
  __requires(blockDim.x <= 512);
  unsigned r = block.thread_rank();
  unsigned base = blockIdx.x * blockDim.x;
  buf[r] = in[base + r];
  block.sync();
  out[base + r] = buf[blockDim.x - 1 - r];
}
