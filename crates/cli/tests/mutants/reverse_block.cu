// flags: --blockDim=64 --gridDim=4
//
// A kernel written for the mutation sample: each block reverses its slice
// of `in` through shared memory, guards the tail of the array, and counts
// the elements it wrote with an atomic.

#define B 64

__global__ void reverse_block(const int *in, int *out, int *count, int n) {
  __shared__ int tile[B];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * B + t;
  if (i < n) {
    tile[t] = in[i];
  }
  __syncthreads();
  unsigned src = B - 1 - t;
  if (i < n && blockIdx.x * B + src < n) {
    out[i] = tile[src];
    atomicAdd(count, 1);
  }
}
