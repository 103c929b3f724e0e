// expect: possible-errors
// flags: --blockDim=64 --gridDim=2
// Each thread takes a slot of one counter, but the negative inputs are
// written one element further on (`(out + 1)[slot]`): the thread that took
// slot 0 with a negative input and the one that took slot 1 with a
// positive input both write out[1]. Distinct slots are distinct elements
// only for writes through one base and one element size.
__global__ void push_two_views(const int *in, int *out, unsigned *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  if (v > 0) {
    unsigned slot = atomicAdd(count, 1u);
    out[slot] = v;
  } else {
    unsigned slot = atomicAdd(count, 1u);
    (out + 1)[slot] = -v;
  }
}
