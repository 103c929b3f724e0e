// expect: verified
// flags: --blockDim=64 --gridDim=1 --equality-abstraction
// Every thread reads the shared counter and writes the value back
// unchanged (a "touch" that a later version would turn into an update).
// Under the equality abstraction the threads of the group read one value
// from it, so the writes are all of that value and leave the counter as
// it was: they race neither with each other nor with the reads.

__global__ void touch(int *counter, int *seen) {
  int v = counter[0];
  counter[0] = v;
  seen[threadIdx.x] = v;
}
