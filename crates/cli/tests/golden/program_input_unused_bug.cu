// expect: errors
// flags:
//
// As program_input_unused.cu, but the number read is the kernel's offset:
// any input but 0 makes the threads write past the buffer. The run that
// read 0 is not every behaviour, since the offset is an address; the run
// that reads 1 writes past the end, a confirmed error.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>

#define N 32

__global__ void square(int *x, int offset) { x[threadIdx.x + offset] = threadIdx.x * threadIdx.x; }

int main() {
  int host[N];
  int *dev;
  int offset = 0;
  scanf("%d", &offset);
  cudaMalloc((void **)&dev, sizeof(host));
  square<<<1, N>>>(dev, offset);
  cudaMemcpy(host, dev, sizeof(host), cudaMemcpyDeviceToHost);
  printf("last: %d\n", host[N - 1]);
  cudaFree(dev);
  return 0;
}
