// expect: errors
// flags: --blockDim=64 --gridDim=4
// The counter is system-scoped, but the last index is written with a plain
// store: threads race on `last`.
__global__ void count_system_plain_last(const int *in, unsigned *total, int *last, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    atomicAdd_system(total, 1u);
    *last = i;
  }
}
