// expect: errors
// flags: --blockDim=256 --gridDim=4
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
// The tile is read before the wait: the asynchronous copy may not have
// landed yet, so the read races with the copy's write.
__global__ void reverse_tiles_early(const int *in, int *out) {
  __shared__ int tile[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(int) * 256);
  int v = tile[255 - threadIdx.x];
  cg::wait(block);
  out[blockIdx.x * 256 + threadIdx.x] = v;
}
