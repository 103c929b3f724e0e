// expect: errors
// flags:
//
// As program_input_printed.cu, but the way taken when the read succeeds
// prints an element one past the end of `h`: that way reads memory, so the
// branch is no longer a choice between printing and not printing, and the
// run's way (the read succeeds) reads past the array.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>

__global__ void inc(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += 1;
}

int main() {
  const int n = 256;
  int h[n];
  for (int i = 0; i < n; ++i)
    h[i] = i;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  inc<<<2, 128>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    assert(h[i] == i + 1);
  cudaFree(d);
  int k;
  if (scanf("%d", &k) == 1)
    printf("%d, last is %d\n", k, h[n]);
  return 0;
}
