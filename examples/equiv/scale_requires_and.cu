// out = 3 * in + m over n elements with a grid-stride loop, under a
// precondition that is a conjunction (`n` even and `m` positive): the
// short-circuit `&&` must stay one path into the loop.

__global__ void scale(int *out, const int *in, unsigned n, unsigned m) {
  __requires(n % 2 == 0 && m > 0);
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = 3 * in[i] + m;
}
