// expect: verified
// flags: --check-array-bounds
// The block size is a constant of the launch site and the grid follows the
// input's length: the kernel is checked for 256-thread blocks and every
// grid. Each block reverses its 256 elements through shared memory, which
// holds exactly one element per thread of such a block.
#define BLOCK 256

__global__ void reverse_blocks(int *data) {
  __shared__ int staged[BLOCK];
  unsigned base = blockIdx.x * BLOCK;
  staged[threadIdx.x] = data[base + threadIdx.x];
  __syncthreads();
  data[base + threadIdx.x] = staged[BLOCK - 1 - threadIdx.x];
}

void reverse_all(int *data, unsigned blocks) {
  reverse_blocks<<<blocks, BLOCK>>>(data);
}
