// Barrier divergence: only the first half of the group reaches the barrier.
__global__ void k(int *A) {
  if (threadIdx.x < 16) {
    __syncthreads();
  }
  A[threadIdx.x] = 1;
}
