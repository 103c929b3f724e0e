// expect: errors
// flags: --blockDim=32 --gridDim=1
// The last thread writes one element past the end of the shared tile.

__global__ void shift(int *out) {
  __shared__ int tile[32];
  tile[threadIdx.x + 1] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}
