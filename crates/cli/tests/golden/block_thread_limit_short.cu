// expect: errors
// flags: --check-array-bounds
// The same kernel with a shared array of 512 entries: a block of more than
// 512 threads (600 x 1 x 1, or 16 x 8 x 5) writes past its end.
__global__ void linear_slots(int *out) {
  __shared__ int slot[512];
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  slot[t] = (int)t;
  __syncthreads();
  unsigned n = blockDim.x * blockDim.y * blockDim.z;
  if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0)
    out[t] = slot[n - 1 - t];
}
