// expect: verified
// flags: --blockDim=64 --gridDim=4
// A per-block histogram in shared memory, counted with block-scoped
// atomics: every thread that can reach `bins` is in the block that owns
// it, so atomics that are atomic within the block are enough.
__global__ void block_histogram(const unsigned *in, unsigned *out, int n) {
  __shared__ unsigned bins[16];
  if (threadIdx.x < 16) bins[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd_block(&bins[in[i] % 16], 1u);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);
}
