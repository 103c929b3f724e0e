__global__ void stride(int *A, unsigned n) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
    A[i] = i;
  }
}
