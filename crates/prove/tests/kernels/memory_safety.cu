__constant__ int table[64];
__global__ void write_constant(int *A) {
  table[threadIdx.x] = A[threadIdx.x];
}
__global__ void read_constant(int *A) {
  A[threadIdx.x] = table[threadIdx.x];
}
__global__ void null_store(int *A) {
  int *p = 0;
  if (threadIdx.x == 3) {
    p[0] = 1;
  }
}
