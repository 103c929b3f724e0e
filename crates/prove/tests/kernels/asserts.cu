__global__ void holds(int *A) {
  __assert(threadIdx.x < 64);
  A[threadIdx.x] = 0;
}
__global__ void fails(int *A) {
  __assert(threadIdx.x < 10);
  A[threadIdx.x] = 0;
}
