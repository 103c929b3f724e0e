// expect: possible-errors
// flags:
//
// As program_draw_offset.cu, but the offset is `rand() % 5`, up to 4: the
// last thread then writes one element past the buffer. Whether the run's
// own seed draws a 4 depends on the clock, so the prover's finding for
// offset 4, within the range the host gives it, is a possible error.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdlib.h>
#include <time.h>

#define N 64

__global__ void shifted(int *a, int offset) {
  // The bound the buffer has (the prover checks accesses against it as an
  // assertion says it).
  assert(threadIdx.x + offset < N + 3);
  a[threadIdx.x + offset] = offset;
}

int main() {
  srand(time(NULL));
  int offset = rand() % 5;
  int *d;
  cudaMalloc((void **)&d, (N + 3) * sizeof(int));
  shifted<<<1, N>>>(d, offset);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
