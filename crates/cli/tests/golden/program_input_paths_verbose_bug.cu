// expect: errors
// flags:
//
// As program_input_paths_verbose.cu, but the verbose listing prints one
// element past the end of the host's array: only a run that reads a
// non-zero number takes that way, and the exploration runs one.
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
    for (int i = 0; i <= N; i++)
      printf("%d ", h[i]);
    printf("\n");
  }
  cudaFree(d);
  return 0;
}
