// expect: errors
// flags: --blockDim=64 --gridDim=4
// A grid-wide counter updated with a block-scoped atomic: the atomics of
// different blocks are not atomic with respect to each other, so blocks
// race on `total`, which is reported with a witness of two blocks.
__global__ void count_positive(const int *in, unsigned *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) atomicAdd_block(total, 1u);
}
