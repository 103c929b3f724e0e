// Race-free: a shared tile written, then read by a neighbour after a barrier.
__global__ void k(int *out, const int *in) {
  __shared__ int tile[64];
  unsigned t = threadIdx.x;
  tile[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  out[blockIdx.x * 64 + t] = tile[(t + 1) % 64];
}
