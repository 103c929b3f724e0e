// expect: verified
// flags:
//
// The host sets only the first half of its inputs, the kernel adds every
// element, and the host counts the sums that differ from its own, over
// all elements, only to print the count. The comparison of never-written
// elements is a branch on undetermined values, but its two ways differ
// only in the count, which is then printed: the count becomes
// undetermined, and the run still decides the program. The assertion
// checks the half that was set. Compare with program_count_mismatches_bug.cu.
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
  add<<<1, N>>>(da, db, dc, N);
  cudaMemcpy(c, dc, N * sizeof(int), cudaMemcpyDeviceToHost);
  int mismatches = 0;
  for (int i = 0; i < N; i++)
    if (c[i] != a[i] + b[i])
      mismatches++;
  printf("%d mismatches\n", mismatches);
  for (int i = 0; i < N / 2; i++)
    assert(c[i] == 2 * i);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(a);
  free(b);
  free(c);
  return 0;
}
