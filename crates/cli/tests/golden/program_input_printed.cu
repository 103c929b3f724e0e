// expect: verified
// flags:
//
// The program reads a number after its last check and only prints it, or
// prints nothing when the read fails. Which way the branch on the read's
// result goes changes what is printed and nothing else, so the one run
// stands for every input. Compare with program_input_printed_bug.cu, whose
// printed element lies past the array.
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
    printf("%d doubled is %d\n", k, 2 * k);
  return 0;
}
