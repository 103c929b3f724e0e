// expect: errors
// flags:
//
// As program_recomputed_sum.cu, but the kernel adds `b[i]` twice: its
// sums are another computation of the draws than the host's, so the
// host's assertion depends on them, and it fails for the first draw of
// `b` that is not 0 (the run's seed gives one at once).
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 256

__global__ void add(const int *a, const int *b, int *c, const float *x, const float *y, float *z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = b[i] + a[i] + b[i];
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
