// expect: errors
// flags: --blockDim=256 --gridDim=1024
// As atomic_slot_compact.cu, but two consecutive slots map to one element
// of out: the second increment's thread writes the first one's element.
// (It keeps the non-negative elements, so that the zero-filled input of the
// concrete search already shows the race.)

__global__ void compact(const int *in, int *out, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] >= 0) {
    unsigned slot = atomicAdd(count, 1u);
    out[slot / 2] = in[i];
  }
}
