#define N 64
__global__ void rotate(const int *in, int *out) {
  __shared__ int tile[N];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * N + t;
  tile[t] = in[g];
  __syncthreads();
  out[g] = tile[(t + 1) % N];
}
