// expect: errors
// flags:
//
// As program_count_mismatches.cu, but the kernel is told to add only the
// first half, and the host asserts that no sum differs. The second half of
// `c` is never written, so the count depends on what never-written memory
// holds: with zeros everywhere it is 0, with other contents it is not, and
// that run is one of the program's behaviours.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64

__global__ void add(const int *a, const int *b, int *c, int n) {
  int i = threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main() {
  int *a = (int *)malloc(N * sizeof(int));
  int *b = (int *)malloc(N * sizeof(int));
  int *c = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N / 2; i++) {
    a[i] = i;
    b[i] = i;
  }
  int *da, *db, *dc;
  cudaMalloc((void **)&da, N * sizeof(int));
  cudaMalloc((void **)&db, N * sizeof(int));
  cudaMalloc((void **)&dc, N * sizeof(int));
  cudaMemcpy(da, a, N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, N * sizeof(int), cudaMemcpyHostToDevice);
  add<<<1, N>>>(da, db, dc, N / 2);
  cudaMemcpy(c, dc, N * sizeof(int), cudaMemcpyDeviceToHost);
  int mismatches = 0;
  for (int i = 0; i < N; i++)
    if (c[i] != a[i] + b[i])
      mismatches++;
  printf("%d mismatches\n", mismatches);
  assert(mismatches == 0);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(a);
  free(b);
  free(c);
  return 0;
}
