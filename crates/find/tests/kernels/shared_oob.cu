// The last thread of the group reads tile[64], one past the end.
__global__ void k(int *out) {
  __shared__ int tile[64];
  unsigned t = threadIdx.x;
  tile[t] = t;
  __syncthreads();
  out[t] = tile[t + 1];
}
