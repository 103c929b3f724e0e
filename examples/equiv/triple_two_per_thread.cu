// The map of triple_each.cu with two elements per thread: thread t writes
// elements 2t and 2t + 1, each only when it is below n, so the thread of
// the last pair writes one element when n is odd.

__global__ void triple(int *out, const int *in, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = 2 * t;
  if (i < n)
    out[i] = 3 * in[i] + 1;
  if (i + 1 < n)
    out[i + 1] = 3 * in[i + 1] + 1;
}
