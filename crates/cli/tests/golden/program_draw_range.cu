// expect: verified
// flags:
//
// `rand` is seeded from the clock, so each run draws other numbers, and
// the host's assertion compares the kernel's results with a bound. Yet
// `rand() % 10` lies in [0, 9] whatever the seed (`rand` is never
// negative), so twice it lies in [0, 18]: the assertion holds for every
// draw, and the one run decides the program. Compare with
// program_draw_range_bug.cu, whose bound is one too small.
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
    assert(c[i] >= 0 && c[i] <= 18);
  cudaFree(da);
  cudaFree(dc);
  return 0;
}
