// expect: unknown
// flags: --blockDim=64 --gridDim=1
// Host code that initialises a variable-length array, a GNU C++ extension
// that nvcc's host compiler accepts and clang cannot compile: the file is
// `unknown` with the line, not rejected as if it were invalid.
#include <cuda_runtime.h>

__global__ void fill(int *out, int v) { out[threadIdx.x] = v; }

void launch_all(int **outs, int count) {
  cudaStream_t streams[count] = {0};
  for (int i = 0; i < count; i++) {
    cudaStreamCreate(&streams[i]);
    fill<<<1, 64, 0, streams[i]>>>(outs[i], i);
  }
}
