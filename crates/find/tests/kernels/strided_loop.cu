// Race-free: a grid-stride style loop over the elements of one group.
__global__ void k(int *A, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    A[i] = A[i] + 1;
  }
}
