// expect: verified
// flags: --blockDim=64 --gridDim=2 --mode=prove
// A call through a function pointer that holds one of two functions: the
// prover knows the functions' addresses, so the call's fallback for an
// address that is no function (a bad pointer) is unreachable.
__device__ float twice(float x) { return 2.0f * x; }
__device__ float half(float x) { return 0.5f * x; }

typedef float (*op_t)(float);

__global__ void apply(float *v, int which) {
  __requires(which == 0 | which == 1);
  op_t op = which == 0 ? twice : half;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = op(v[i]);
}
