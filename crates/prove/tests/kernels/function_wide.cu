// Function-wide invariants: stated once, checked at every loop header.
__global__ void both_loops(int *A) {
  unsigned N = blockDim.x * gridDim.x;
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 100; i++) {
    A[tid] += A[tid + N];
  }
  for (int j = 0; __invariant(j >= 0), j < 100; j++) {
    A[tid + j * N] += A[tid + N];
  }
  __function_wide_invariant(__write_implies(A, ((__write_offset_bytes(A) / sizeof(int)) % N) == tid));
  __function_wide_invariant(__read_implies(A, ((__read_offset_bytes(A) / sizeof(int)) % N) == tid));
}
// The second loop writes one element further: the write invariant is not
// maintained there.
__global__ void violated(int *A) {
  unsigned N = blockDim.x * gridDim.x;
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 100; i++) {
    A[tid] += A[tid + N];
  }
  for (int j = 0; __invariant(j >= 0), j < 100; j++) {
    A[tid + j * N + 1] += A[tid + N];
  }
  __function_wide_invariant(__write_implies(A, ((__write_offset_bytes(A) / sizeof(int)) % N) == tid));
}
// An invariant that reads memory cannot be stated at a loop header.
__global__ void reads_memory(int *A) {
  for (int i = 0; i < 100; i++) {
    A[threadIdx.x] = i;
  }
  __function_wide_invariant(A[threadIdx.x] >= 0);
}
// As a candidate it is simply not offered.
__global__ void candidate_reads_memory(int *A) {
  for (int i = 0; i < 100; i++) {
  }
  A[threadIdx.x] = 1;
  __function_wide_candidate_invariant(A[threadIdx.x] >= 0);
}
