// expect: errors
// Issue #16: no launch sizes given (symbolic blockDim/gridDim).
// The bug: no barrier between clearing the bins and the atomic counts.
// A per-block histogram of bytes: clear shared bins with a block-strided
// loop, count with atomics over a grid-stride loop, then each block writes
// its own copy of the bins with a block-strided loop.
__global__ void byte_hist(const unsigned char *data, unsigned *blockBins, int n) {
  __shared__ unsigned bins[256];
  int base = (int)blockIdx.x * 256;
  for (int b = threadIdx.x; b < 256; b += blockDim.x) bins[b] = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    blockBins[base + b] = bins[b];
}
