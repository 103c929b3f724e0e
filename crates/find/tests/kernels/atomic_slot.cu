// Race-free: each thread claims a distinct slot with atomicAdd.
__global__ void k(unsigned *counter, int *A) {
  unsigned j = atomicAdd(counter, 1u);
  A[j] = threadIdx.x;
}
