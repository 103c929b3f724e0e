__device__ void put(int *A, unsigned i, int v) {
  A[i] = v;
}
__device__ unsigned global_id() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}
__global__ void ok(int *A) {
  put(A, global_id(), 1);
}
__global__ void racy(int *A) {
  // Two threads write different values to one cell (equal values would
  // be a benign race).
  put(A, threadIdx.x / 2, threadIdx.x);
}
