// expect: errors
// flags: --blockDim=64 --gridDim=2
// The prover proves this kernel free of races, divergence and failing
// assertions, and it runs before the bounded finder; the finder then looks
// only for what the prover does not check. Division by zero is one: with
// `parts == 1` the divisor is zero, which the concrete search (whose `parts`
// is the number of threads) does not meet and the finder must still find.
__global__ void split_evenly(int *out, const int *in, int parts) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] / (parts - 1);
}
