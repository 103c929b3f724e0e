// expect: verified
// Issue #16: no launch sizes given (symbolic blockDim/gridDim).
// Each thread fills every blockDim.x-th element of a shared tile with a
// value of its own, then reads its neighbour's element after the barrier.
__global__ void clear_then_shift(float *out, int n) {
  __shared__ float tile[512];
  for (int i = threadIdx.x; i < 512; i += blockDim.x)
    tile[i] = 0.5f * threadIdx.x + i;
  __syncthreads();
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < n && threadIdx.x < 511)
    out[g] = tile[threadIdx.x + 1];
}
