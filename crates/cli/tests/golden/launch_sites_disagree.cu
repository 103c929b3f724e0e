// expect: verified
// flags: --check-array-bounds
// Two launch sites give the kernel different block sizes, so its block
// size is not fixed to one of them: it is checked for the launches of
// either site (256 threads, or 128 threads in an even number of blocks).
// Neither launches a block larger than the shared buffer, which the kernel
// does not guard against.
#define BLOCK 256

__global__ void reverse_blocks(int *data) {
  __shared__ int staged[BLOCK];
  unsigned base = blockIdx.x * blockDim.x;
  staged[threadIdx.x] = data[base + threadIdx.x];
  __syncthreads();
  data[base + threadIdx.x] = staged[blockDim.x - 1 - threadIdx.x];
}

void reverse_all(int *data, unsigned blocks) {
  reverse_blocks<<<blocks, BLOCK>>>(data);
}

void reverse_halves(int *data, unsigned blocks) {
  reverse_blocks<<<2 * blocks, BLOCK / 2>>>(data);
}
