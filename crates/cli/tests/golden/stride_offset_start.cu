// expect: verified
// flags: --blockDim=96 --gridDim=1 --mode=prove
// Loops over every 96th element (the group size, not a power of two) from
// a start past a constant offset: `960 + threadIdx.x` stepping down by
// `i += -96` (a negative step is a step down by its magnitude), and
// `100 + threadIdx.x` stepping up. The remainder of such a start is that of
// `threadIdx.x + 960 % 96` (or `100 % 96`), so two threads never meet.
__global__ void offset_starts(int *a, int *b, unsigned n) {
  __requires(n <= 0x7fffffff);
  for (int i = 960 + threadIdx.x; i >= 96; i += -96) {
    a[i] = i;
  }
  for (unsigned i = 100 + threadIdx.x; i < n; i += 96) {
    b[i] = i;
  }
}
