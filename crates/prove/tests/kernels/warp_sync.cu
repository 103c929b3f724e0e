// A warp-synchronous scan: correct only if the threads of a warp of 32
// execute in lockstep.
__global__ void scan_warp(int *A) {
  int tid = threadIdx.x;
  unsigned lane = tid & 31;
  if (lane >= 1) A[tid] = A[tid - 1] + A[tid];
  if (lane >= 2) A[tid] = A[tid - 2] + A[tid];
  if (lane >= 4) A[tid] = A[tid - 4] + A[tid];
}
// Reads across warps of 32 threads: a race whatever the warp size.
__global__ void across_warps(int *A) {
  int tid = threadIdx.x;
  A[tid] = A[(tid + 32) % 128];
}
