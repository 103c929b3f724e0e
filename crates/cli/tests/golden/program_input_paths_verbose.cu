// expect: verified
// flags:
//
// The input only decides whether the results are printed, in a loop (a
// branch whose ways differ in more than what they print, so one run does
// not stand for both). Its two paths, and a failed read, are each run.
// Compare with program_input_paths_verbose_bug.cu.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>

#define N 32

__global__ void iota(int *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * blockDim.x + threadIdx.x; }

int main() {
  int verbose = 0;
  scanf("%d", &verbose);
  int h[N];
  int *d;
  cudaMalloc((void **)&d, N * sizeof(int));
  iota<<<4, N / 4>>>(d);
  cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
  int sum = 0;
  for (int i = 0; i < N; i++)
    sum += h[i];
  assert(sum == N * (N - 1) / 2);
  if (verbose) {
    for (int i = 0; i < N; i++)
      printf("%d ", h[i]);
    printf("\n");
  }
  cudaFree(d);
  return 0;
}
