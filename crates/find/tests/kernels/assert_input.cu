// The assertion fails only when the argument is 1234567.
__global__ void k(int *A, int x) {
  A[threadIdx.x] = x;
  __assert(x != 1234567);
}
