// expect: verified
// flags:
//
// Every thread writes 1 to the same flag: two writes of one value, the
// same in every run, are a benign race. The buffer the kernel also reads
// was never written by the host, but no thread branches on it. Compare
// with program_same_value_write_bug.cu, where the threads write what they
// read there.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdlib.h>

#define N 32

__global__ void flag_and_copy(const int *in, int *out, int *flag) {
  out[threadIdx.x] = in[threadIdx.x];
  *flag = 1;
}

int main() {
  int *in, *out, *flag;
  cudaMalloc((void **)&in, N * sizeof(int));
  cudaMalloc((void **)&out, N * sizeof(int));
  cudaMalloc((void **)&flag, sizeof(int));
  flag_and_copy<<<1, N>>>(in, out, flag);
  int f = 0;
  cudaMemcpy(&f, flag, sizeof(int), cudaMemcpyDeviceToHost);
  assert(f == 1);
  cudaFree(in);
  cudaFree(out);
  cudaFree(flag);
  return 0;
}
