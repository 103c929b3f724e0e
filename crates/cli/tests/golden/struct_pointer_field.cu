// expect: errors
// flags: --blockDim=64 --gridDim=2
// The pointer inside the by-value struct addresses a buffer of the host's;
// every thread writes its first element.
struct buffers {
  int n;
  float *out;
};

__global__ void k(buffers b) {
  b.out[0] = threadIdx.x;
}
