// A wrong grid-stride loop: the elements past the first block get + 2
// instead of + 1 (a difference that only launches with several blocks
// show).

__global__ void square(int *out, const int *in, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] * in[i] + (i >= blockDim.x ? 2 : 1);
}
