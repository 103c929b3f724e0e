// expect: unknown
// flags:
// A kernel that launches another from device code (CUDA dynamic
// parallelism, built with nvcc -rdc=true). It is valid CUDA that clang
// cannot compile: lockstep says it is unsupported, not that the file is
// invalid.
__global__ void child(int *data, int offset) {
  data[offset + threadIdx.x] += 1;
}

__global__ void parent(int *data) {
  if (threadIdx.x == 0) {
    child<<<1, 32>>>(data, blockIdx.x * 32);
  }
}
