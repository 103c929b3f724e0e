// Every group writes out[0] from its first thread: an inter-group race on
// global memory (no barrier orders different groups).
__global__ void k(int *out) {
  if (threadIdx.x == 0) {
    out[0] = blockIdx.x;
  }
}
