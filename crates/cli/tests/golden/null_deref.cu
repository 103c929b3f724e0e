// expect: errors
// flags: --blockDim=4 --gridDim=1
// Thread 0 writes through a null pointer.

__global__ void nulled(int *out) {
  int *p = threadIdx.x == 0 ? (int *)0 : out;
  p[threadIdx.x] = 1;
}
