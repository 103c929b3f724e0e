// expect: errors
// flags:
//
// As program_input_paths_retry.cu, but the loop lets 3 through: the kernel
// marks only its 2 threads, and the host's check fails for 3, the input
// in the witness.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>

#define N 2

__global__ void mark(int *x, int n) {
  if (threadIdx.x < n)
    x[threadIdx.x] = 1;
  else
    x[threadIdx.x] = 0;
}

int main() {
  int n = 0;
  do {
    printf("how many (1 to %d)? ", N);
    scanf("%d", &n);
  } while (n < 1 || n > N + 1);
  int h[N];
  int *d;
  cudaMalloc((void **)&d, N * sizeof(int));
  mark<<<1, N>>>(d, n);
  cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
  int marked = 0;
  for (int i = 0; i < N; i++)
    if (h[i] == 1)
      marked++;
  assert(marked == n);
  cudaFree(d);
  return 0;
}
