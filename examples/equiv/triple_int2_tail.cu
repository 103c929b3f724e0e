// The map of triple_each.cu with int2 vector accesses: thread t loads
// and stores elements 2t and 2t + 1 at once when both are below n; the
// thread of a last, single element (n odd) writes it with a scalar access.

__global__ void triple(int *out, const int *in, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * t + 1 < n) {
    int2 v = reinterpret_cast<const int2 *>(in)[t];
    v.x = 3 * v.x + 1;
    v.y = 3 * v.y + 1;
    reinterpret_cast<int2 *>(out)[t] = v;
  } else if (2 * t < n) {
    out[2 * t] = 3 * in[2 * t] + 1;
  }
}
