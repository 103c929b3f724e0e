// expect: verified
// flags: --blockDim=64 --gridDim=4
// System-scoped atomics (a counter the host may watch while the kernel
// runs) are atomic for every thread of the grid.
__global__ void count_system(const int *in, unsigned *total, int *last, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    atomicAdd_system(total, 1u);
    atomicExch_system(last, i);
  }
}
