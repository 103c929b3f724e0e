__global__ void flag_const(int *A) {
  A[0] = 1;
}
__global__ void same_quotient(int *A) {
  A[threadIdx.x / 64] = threadIdx.x / 64;
}
__global__ void different_values(int *A) {
  A[threadIdx.x / 64] = threadIdx.x;
}
__global__ void two_constants(int *A) {
  if (threadIdx.x == 0) {
    A[0] = 1;
  } else {
    A[0] = 2;
  }
}
__global__ void from_memory(int *A, int *B) {
  B[threadIdx.x + 1] = 2;
  A[0] = B[0];
}
__global__ void from_memory_same(int *A, int *B) {
  B[threadIdx.x + 1] = 2;
  A[0] = B[0] & 0;
}
__global__ void from_memory_elsewhere(int *A, int *B) {
  B[threadIdx.x + 1] = 2;
  A[0] = B[threadIdx.x];
}
__global__ void read_back_own(int *A) {
  A[0] = 7;
  A[threadIdx.x + 1] = A[0];
}
__global__ void read_back_other(int *A) {
  if (threadIdx.x != 0) {
    A[0] = 7;
  }
  A[threadIdx.x + 1] = A[0];
}
__global__ void read_back_after_barrier(int *A) {
  A[0] = 7;
  __syncthreads();
  A[0] = 7;
  __syncwarp();
  A[threadIdx.x + 1] = A[0];
}
__global__ void flag_in_loop(int *A, int n) {
  for (int i = 0; i < n; i++) {
    A[0] = 1;
  }
}
__global__ void value_in_loop(int *A, int n) {
  for (int i = 0; i < n; i++) {
    A[0] = i;
  }
}
__global__ void spec_read(int *A) {
  A[threadIdx.x] = 1;
  __assume(A[(threadIdx.x + 1) % blockDim.x] != 12345);
}
__global__ void real_read(int *A, int *B) {
  A[threadIdx.x] = 1;
  B[threadIdx.x] = A[(threadIdx.x + 1) % blockDim.x];
}
__global__ void from_unwritten(int *A, int *B) {
  A[0] = B[0];
}
__global__ void from_written(int *A, int *B) {
  B[threadIdx.x] = 1;
  A[0] = B[0];
}
__global__ void index_from_unwritten(int *A, int *idx) {
  // Both threads read the same `idx[0]`: the write is only to one cell
  // when `idx[0]` is, so this is a race (for distinct threads).
  A[idx[0]] = threadIdx.x;
}
__global__ void perm_from_unwritten(int *A, int *B) {
  // The same value read twice from never-written memory is equal.
  if (B[threadIdx.x] != B[threadIdx.x]) {
    A[0] = threadIdx.x;
  }
}
