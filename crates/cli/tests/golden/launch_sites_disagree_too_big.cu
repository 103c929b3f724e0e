// expect: possible-errors
// flags: --check-array-bounds
// Two launch sites give the kernel different block sizes; the second
// launches blocks twice as large as the shared buffer, and the kernel
// writes past it. The prover reports it; the bounded search explores
// symbolic block sizes up to 64 threads only, so it finds no confirmed
// witness at 512 and the verdict is possible-errors.
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
