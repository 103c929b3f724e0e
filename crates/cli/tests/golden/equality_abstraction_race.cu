// expect: errors
// flags: --blockDim=64 --gridDim=1 --equality-abstraction
// The equality abstraction lets the threads of a group read one value from
// bytes neither writes in between; it hides no race: here every thread
// increments buf[0] non-atomically, and the loads race with the stores.

__global__ void bump(int *buf, int *out) {
  int v = buf[0];
  buf[0] = v + 1;
  out[threadIdx.x] = v;
}
