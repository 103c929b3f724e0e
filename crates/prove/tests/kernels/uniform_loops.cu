__global__ void group_bound(int *A) {
  for (int i = 0; i < blockIdx.x; i++) {
    __syncthreads();
  }
}
__global__ void thread_bound(int *A) {
  for (int i = 0; i < threadIdx.x; i++) {
    __syncthreads();
  }
}
