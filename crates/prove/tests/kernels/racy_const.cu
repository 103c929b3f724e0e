__global__ void same_cell(int *A) {
  A[0] = threadIdx.x;
}
