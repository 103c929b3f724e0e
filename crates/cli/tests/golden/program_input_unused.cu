// expect: verified
// flags:
//
// The program reads a number after its checks and only prints it with its
// result: input that reaches no branch, address, assertion or launch
// cannot change the verdict, so the one run decides the program for every
// input. Compare with program_input_unused_bug.cu, whose input offsets the
// kernel's accesses.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>

#define N 32

__global__ void square(int *x, int offset) { x[threadIdx.x + offset] = threadIdx.x * threadIdx.x; }

int main() {
  int host[N];
  int *dev;
  cudaMalloc((void **)&dev, sizeof(host));
  square<<<1, N>>>(dev, 0);
  cudaMemcpy(host, dev, sizeof(host), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; i++)
    assert(host[i] == i * i);
  int scale = 1;
  scanf("%d", &scale);
  printf("scaled: %d\n", host[N - 1] * scale);
  cudaFree(dev);
  return 0;
}
