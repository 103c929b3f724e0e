__global__ void per_thread(int *A) {
  A[threadIdx.x] = blockIdx.x;
}
