__global__ void fill(int *A) {
  A[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}
