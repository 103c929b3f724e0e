// expect: errors
// flags: --blockDim=16 --gridDim=2
// Both blocks write the same elements of global memory with different
// values; a __syncthreads() does not order different blocks.

__global__ void stamp(int *out) {
  out[threadIdx.x] = blockIdx.x;
  __syncthreads();
}
