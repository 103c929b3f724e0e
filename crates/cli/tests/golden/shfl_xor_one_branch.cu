// expect: errors
// flags: --blockDim=64 --gridDim=2
// As shfl_xor_if_else_halves, but only the lower half shuffles: its lanes
// read from upper lanes that never execute a shuffle (they have exited).
__global__ void swap_lower_only(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i], w = v;
  if ((threadIdx.x & 31) < 16)
    w = __shfl_xor_sync(0xffffffffu, v, 16);
  out[i] = w;
}
