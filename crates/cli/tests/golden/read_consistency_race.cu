// expect: errors
// flags: --blockDim=64 --gridDim=1
// Thread 1 writes s[0] between the other threads' two reads of it: the
// reads need not agree, and the write races with them.

__global__ void reread(int *out) {
  __shared__ int s[64];
  int a = s[0];
  if (threadIdx.x == 1) {
    s[0] = 5;
  }
  int b = s[0];
  out[threadIdx.x] = a - b;
}
