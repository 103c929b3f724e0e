// expect: errors
// flags:
//
// As program_same_value_write.cu, but every thread writes the element it
// reads from the never-written buffer to the flag. In the run every byte
// of the buffer holds one fill value, so the writes agree; but the buffer
// may hold anything, and then the writes differ: a race, not a benign
// write of one value.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdlib.h>

#define N 32

__global__ void flag_and_copy(const int *in, int *out, int *flag) {
  out[threadIdx.x] = in[threadIdx.x];
  *flag = in[threadIdx.x];
}

int main() {
  int *in, *out, *flag;
  cudaMalloc((void **)&in, N * sizeof(int));
  cudaMalloc((void **)&out, N * sizeof(int));
  cudaMalloc((void **)&flag, sizeof(int));
  flag_and_copy<<<1, N>>>(in, out, flag);
  cudaFree(in);
  cudaFree(out);
  cudaFree(flag);
  return 0;
}
