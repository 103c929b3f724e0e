// expect: errors
// flags: --blockDim=64 --gridDim=1
// Every thread writes its own id to slot[0] and reads slot[0] back. Having
// written the location itself does not make the read benign here: another
// thread writes a different value, so what the read returns depends on the
// interleaving (and the writes race with each other too).

__global__ void collide(int *slot, int *out) {
  slot[0] = threadIdx.x;
  out[threadIdx.x] = slot[0];
}
