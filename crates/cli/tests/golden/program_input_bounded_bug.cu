// expect: errors
// flags:
//
// As program_input_bounded.cu, but the host lets 5 through: thread 3
// then writes element 8 of 8, as the kernel's assertion says. The prover's counterexample names the
// offset, and the program run again with 5 as its input confirms it.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>

#define N 8

__global__ void shifted(int *a, int offset) {
  assert(threadIdx.x + offset < N);
  a[threadIdx.x + offset] = offset;
}

int main() {
  int offset = 1;
  if (scanf("%d", &offset) != 1)
    return 1;
  if (offset < 1 || offset > 5) {
    printf("the offset must be between 1 and 5\n");
    return 1;
  }
  int *d;
  cudaMalloc((void **)&d, N * sizeof(int));
  shifted<<<1, 4>>>(d, offset);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
