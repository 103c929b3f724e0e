// expect: errors
// flags: --blockDim=32 --gridDim=1
// The argument is `halve` (the precondition says so), but the kernel calls
// through the pointer moved by arithmetic, into the middle of the
// function's code: that is no function's address, so the call is invalid
// although the pointer has the type of `halve`.
typedef float (*unary)(float);

__device__ float halve(float x) { return 0.5f * x; }

__global__ void shrink(float *v, unary f) {
  __requires(f == halve);
  unary g = (unary)((char *)f + 12);
  v[threadIdx.x] = g(v[threadIdx.x]);
}
