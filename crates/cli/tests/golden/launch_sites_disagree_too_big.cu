// expect: errors
// flags: --check-array-bounds
// Two launch sites give the kernel different block sizes; the second
// launches blocks twice as large as the shared buffer, and the kernel
// writes past it. The bounded search, whose symbolic block sizes are
// otherwise small, tries the sites' sizes and confirms it.
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

void reverse_doubled(int *data, unsigned blocks) {
  reverse_blocks<<<blocks, BLOCK * 2>>>(data);
}
