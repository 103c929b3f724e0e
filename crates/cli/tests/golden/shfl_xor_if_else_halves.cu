// expect: possible-errors
// flags: --blockDim=64 --gridDim=2
// CUDA's programming guide: the two halves of a warp exchange values
// through __shfl_xor_sync calls in the two branches of an if, which is
// valid since Volta (lanes meet at any shuffle). The interpreter lets them
// meet, so no error is confirmed; the prover pairs the threads' executions
// of one site only and cannot prove it (a known precision gap).
__global__ void swap_halves(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i], w;
  if ((threadIdx.x & 31) < 16)
    w = __shfl_xor_sync(0xffffffffu, v, 16);
  else
    w = __shfl_xor_sync(0xffffffffu, v, 16) + 1;
  out[i] = w;
}
