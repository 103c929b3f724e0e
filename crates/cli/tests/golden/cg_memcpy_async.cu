// expect: verified
// flags: --blockDim=256 --gridDim=4
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
// Each block stages its tile of `in` in shared memory with an asynchronous
// copy, waits for it (cg::wait also syncs the block), and writes the tile
// back reversed: every read of the tile comes after the copy landed.
__global__ void reverse_tiles(const int *in, int *out) {
  __shared__ int tile[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(int) * 256);
  cg::wait(block);
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}
