// expect: verified
// flags: --blockDim=64 --gridDim=4
// Every thread writes the same value to flag[0]: a benign race, which
// lockstep (like GPUVerify) does not report.

__global__ void raise(int *flag) {
  flag[0] = 1;
}
