// expect: unknown
// flags:
//
// The offset comes from input, and the host lets only 1 to 4 reach the
// kernel: with 4 threads, the largest index is 3 + 4 = 7, inside the 8
// elements. The kernel goes to the prover with the host's branches on the
// input as assumptions, and is verified for every value the program can
// pass; the host program itself stays unknown (its run is one of many
// inputs). Compare with program_input_bounded_bug.cu, whose host also
// lets 5 through.
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
  if (offset < 1 || offset > 4) {
    printf("the offset must be between 1 and 4\n");
    return 1;
  }
  int *d;
  cudaMalloc((void **)&d, N * sizeof(int));
  shifted<<<1, 4>>>(d, offset);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
