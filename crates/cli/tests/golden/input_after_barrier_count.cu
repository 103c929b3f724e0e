// expect: verified
// flags: --blockDim=128 --gridDim=4
// Each block counts its positive inputs in a shared counter: thread 0
// clears it, a barrier, the threads with a positive input add one, a
// second barrier, and thread 0 publishes the count.
__global__ void count_positive(const int *in, unsigned *out) {
  __shared__ unsigned count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0) atomicAdd(&count, 1u);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = count;
}
