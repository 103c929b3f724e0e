// expect: errors
// flags: --blockDim=64 --gridDim=1 --equality-abstraction
// As equality_abstraction_write_back.cu, but the value written back has
// its low bit set: the threads still all write one value (a benign
// write-write race), yet a write that changes the counter races with the
// other threads' reads of it.

__global__ void touch(int *counter, int *seen) {
  int v = counter[0];
  counter[0] = v | 1;
  seen[threadIdx.x] = v;
}
