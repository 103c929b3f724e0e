// Every thread writes A[0]: a write-write race.
__global__ void k(int *A) {
  A[0] = threadIdx.x;
}
