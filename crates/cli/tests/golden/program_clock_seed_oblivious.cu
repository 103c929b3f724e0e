// expect: verified
// flags:
//
// `rand` is seeded from the clock, so the numbers the kernel adds differ
// from run to run. They are only copied, added and stored: no branch,
// address or assertion depends on them, so the launch is data-oblivious
// and its one run covers every seed; the host checks only the indices the
// kernel records, which are the same in every run. Compare with
// program_clock_seed_oblivious_bug.cu, whose kernel records indices in
// the wrong place.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 256

__global__ void add(const int *a, const int *b, int *c, int *idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
  idx[i] = i;
}

int main() {
  srand((unsigned)time(NULL));
  int a[N], b[N], c[N], idx[N];
  for (int i = 0; i < N; i++) {
    a[i] = rand() % 10;
    b[i] = rand() % 10;
  }
  int *da, *db, *dc, *didx;
  cudaMalloc((void **)&da, sizeof(a));
  cudaMalloc((void **)&db, sizeof(b));
  cudaMalloc((void **)&dc, sizeof(c));
  cudaMalloc((void **)&didx, sizeof(idx));
  cudaMemcpy(da, a, sizeof(a), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof(b), cudaMemcpyHostToDevice);
  add<<<N / 64, 64>>>(da, db, dc, didx);
  cudaMemcpy(c, dc, sizeof(c), cudaMemcpyDeviceToHost);
  cudaMemcpy(idx, didx, sizeof(idx), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; i++)
    assert(idx[i] == i);
  printf("c[0] = %d\n", c[0]);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(didx);
  return 0;
}
