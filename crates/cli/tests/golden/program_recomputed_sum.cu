// expect: verified
// flags:
//
// `rand` is seeded from the clock, so the numbers differ from run to run,
// and the host's assertions compare them: each run could go another way,
// unless both sides are one value whatever the draws. Here the kernel's
// sums and the host's are the same computation of the same draws (integer
// addition, and float addition of small whole numbers, which is exact and
// never NaN), so every assertion holds for every seed and the one run
// decides the program. Compare with program_recomputed_sum_bug.cu, whose
// kernel adds one element twice.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 256

__global__ void add(const int *a, const int *b, int *c, const float *x, const float *y, float *z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = b[i] + a[i];
  z[i] = x[i] + y[i];
}

int main() {
  srand((unsigned)time(NULL));
  int a[N], b[N], c[N];
  float x[N], y[N], z[N];
  for (int i = 0; i < N; i++) {
    a[i] = rand() % 10;
    b[i] = rand() % 10;
    x[i] = rand() % 100;
    y[i] = rand() % 100;
  }
  int *da, *db, *dc;
  float *dx, *dy, *dz;
  cudaMalloc((void **)&da, sizeof(a));
  cudaMalloc((void **)&db, sizeof(b));
  cudaMalloc((void **)&dc, sizeof(c));
  cudaMalloc((void **)&dx, sizeof(x));
  cudaMalloc((void **)&dy, sizeof(y));
  cudaMalloc((void **)&dz, sizeof(z));
  cudaMemcpy(da, a, sizeof(a), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof(b), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x, sizeof(x), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, sizeof(y), cudaMemcpyHostToDevice);
  add<<<N / 64, 64>>>(da, db, dc, dx, dy, dz);
  cudaMemcpy(c, dc, sizeof(c), cudaMemcpyDeviceToHost);
  cudaMemcpy(z, dz, sizeof(z), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; i++) {
    if (c[i] != a[i] + b[i])
      printf("mismatch at %d\n", i);
    assert(c[i] == a[i] + b[i]);
    assert(z[i] == x[i] + y[i]);
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dz);
  return 0;
}
