// expect: errors
// flags:
//
// As program_draw_range.cu, but the host's bound is 17, and twice a draw
// of 9 is 18: the assertion depends on the draws, and fails for the first
// 9 the run's seed gives.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdlib.h>
#include <time.h>

#define N 256

__global__ void twice(const int *a, int *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = 2 * a[i];
}

int main() {
  srand((unsigned)time(NULL));
  int a[N], c[N];
  for (int i = 0; i < N; i++)
    a[i] = rand() % 10;
  int *da, *dc;
  cudaMalloc((void **)&da, sizeof(a));
  cudaMalloc((void **)&dc, sizeof(c));
  cudaMemcpy(da, a, sizeof(a), cudaMemcpyHostToDevice);
  twice<<<N / 64, 64>>>(da, dc);
  cudaMemcpy(c, dc, sizeof(c), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; i++)
    assert(c[i] >= 0 && c[i] <= 17);
  cudaFree(da);
  cudaFree(dc);
  return 0;
}
