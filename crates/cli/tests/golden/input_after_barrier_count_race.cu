// expect: errors
// flags: --blockDim=128 --gridDim=4
// As input_after_barrier_count, without the second barrier: thread 0 reads
// the count while threads whose input is positive may still add to it.
// The input is read after a barrier, and the witness must give a thread a
// positive input for its increment to happen in the replay.
__global__ void count_positive(const int *in, unsigned *out) {
  __shared__ unsigned count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0) atomicAdd(&count, 1u);
  if (threadIdx.x == 0) out[blockIdx.x] = count;
}
