// The assertion fails only if the input array holds 42 at the thread's index.
__global__ void k(const int *in, int *out) {
  int v = in[threadIdx.x];
  __assert(v != 42);
  out[threadIdx.x] = v;
}
