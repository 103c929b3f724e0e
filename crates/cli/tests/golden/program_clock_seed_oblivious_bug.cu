// expect: errors
// flags:
//
// As program_clock_seed_oblivious.cu, but each thread records its index
// at idx[i / 2]: two threads write one element, a race in every run
// whatever the seed, so the one run of the data-oblivious launch shows it.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 256

__global__ void add(const int *a, const int *b, int *c, int *idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
  idx[i / 2] = i;
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
  printf("c[0] = %d\n", c[0]);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(didx);
  return 0;
}
