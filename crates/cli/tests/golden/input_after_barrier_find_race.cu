// expect: errors
// flags: --blockDim=256 --gridDim=8
// As input_after_barrier_find, but every matching thread writes its index
// into one shared slot: two threads whose keys both match race. The keys
// are read after a barrier; the witness must make both match.
__global__ void find_key(const int *keys, int target, int *first) {
  __shared__ int slot;
  if (threadIdx.x == 0) slot = 0x7fffffff;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (keys[i] == target) slot = i;
  __syncthreads();
  if (threadIdx.x == 0) first[blockIdx.x] = slot;
}
