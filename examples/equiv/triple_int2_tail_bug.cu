// triple_int2_tail.cu with the vector's lanes swapped when stored back:
// element 2t gets the value of element 2t + 1 and the other way round.

__global__ void triple(int *out, const int *in, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * t + 1 < n) {
    int2 v = reinterpret_cast<const int2 *>(in)[t];
    int2 w;
    w.x = 3 * v.y + 1;
    w.y = 3 * v.x + 1;
    reinterpret_cast<int2 *>(out)[t] = w;
  } else if (2 * t < n) {
    out[2 * t] = 3 * in[2 * t] + 1;
  }
}
