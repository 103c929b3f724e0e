// Counting increments return distinct old values to distinct threads.
__global__ void counter(unsigned *c, int *A) {
  unsigned j = atomicAdd(c, 1);
  A[j] = threadIdx.x;
}
// Adding the thread id (zero for thread 0) may return the same value twice.
__global__ void add_tid(unsigned *c, int *A) {
  unsigned j = atomicAdd(c, threadIdx.x);
  A[j] = threadIdx.x;
}
// Another atomic on the counter can undo an increment.
__global__ void add_and_sub(unsigned *c, int *A) {
  unsigned j = atomicAdd(c, 1);
  atomicSub(c, 1);
  A[j] = threadIdx.x;
}
// Each group has its own shared counter: indices repeat across groups.
__global__ void shared_counter(int *A) {
  __shared__ unsigned c;
  unsigned j = atomicAdd(&c, 1);
  A[j] = threadIdx.x;
}
