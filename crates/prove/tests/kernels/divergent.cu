__global__ void diverge(int *A) {
  __shared__ int s[64];
  if (threadIdx.x < 5) {
    s[threadIdx.x] = 1;
    __syncthreads();
  }
  A[threadIdx.x] = s[threadIdx.x];
}
