// Each thread reads its right neighbour's element, which that neighbour
// writes in the same barrier interval: a read-write race.
__global__ void k(int *A) {
  unsigned t = threadIdx.x;
  A[t] = A[t + 1] + 1;
}
