// Every thread writes the same value to A[0]: a benign write-write race,
// which is not reported.
__global__ void k(int *A) {
  A[0] = 7;
}
