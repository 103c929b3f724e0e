// A loop no thread enters, or one that thread 1 (the logging thread) does not
// enter, leaves thread 1's race logs as they were: the races between the
// accesses around it are still found.
__global__ void skipped_loop(int *A, int *B, int n) {
  A[threadIdx.x] = 1;
  for (int i = 0; i < n; i++) {
    B[threadIdx.x] = i;
  }
  A[threadIdx.x + 1] = 2;
}
__global__ void skipped_loop2(int *A, int n) {
  A[threadIdx.x] = 1;
  for (int i = 0; i < n; i++) {
    A[threadIdx.x] += i;
  }
  A[threadIdx.x + 1] = 2;
}
__global__ void skipped_loop3(int *A, int n) {
  A[threadIdx.x] = 1;
  if (threadIdx.x > 1000) {
    for (int i = 0; i < n; i++) {
      A[threadIdx.x] += i;
    }
  }
  A[threadIdx.x + 1] = 2;
}
__global__ void logger_skips_loop(int *A, int *B, int n) {
  if (threadIdx.x % 2 == 1) A[threadIdx.x] = 1;
  if (threadIdx.x % 2 == 0) {
    for (int i = 0; i < n; i++) {
      B[threadIdx.x] = i;
    }
  }
  if (threadIdx.x % 2 == 0) A[threadIdx.x + 1] = 2;
}
__global__ void logger_skips_loop_shared(int n) {
  __shared__ int A[65];
  if (threadIdx.x % 2 == 1) A[threadIdx.x] = 1;
  if (threadIdx.x % 2 == 0) {
    for (int i = 0; i < n; i++) {
      A[threadIdx.x] = i;
    }
  }
  if (threadIdx.x % 2 == 0) A[threadIdx.x + 1] = 2;
}
