// expect: errors
// flags: --blockDim=[32,4] --gridDim=2
// A two-dimensional block whose barrier counts only one row of threads
// (`blockDim.x` instead of the block's size): each phase completes after 32
// arrivals, so the barrier orders nothing for the block. lockstep's model
// asserts at `init` that the count is the number of threads of the block.
#include <cuda/barrier>

__global__ void transpose_tile(float *out, const float *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> done;
  __shared__ float tile[4][33];
  unsigned x = threadIdx.x, y = threadIdx.y;
  if (x == 0 && y == 0) init(&done, blockDim.x);
  __syncthreads();
  tile[y][x] = in[(blockIdx.x * 4 + y) * 32 + x];
  done.arrive_and_wait();
  if (y == 0 && x < 4) {
    for (unsigned k = 0; k < 32; ++k) out[blockIdx.x * 128 + k * 4 + x] = tile[x][k];
  }
}
