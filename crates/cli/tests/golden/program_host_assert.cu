// expect: errors
// flags:
//
// The host checks the kernel's result with the wrong formula: the kernel
// squares, the host expects doubling. The assertion fails for element 3
// (9 != 6); the run of main shows it.
#include <cuda_runtime.h>
#include <assert.h>

__global__ void square(int *x) { x[threadIdx.x] = threadIdx.x * threadIdx.x; }

int main() {
  int host[8];
  int *dev;
  cudaMalloc((void **)&dev, sizeof(host));
  square<<<1, 8>>>(dev);
  cudaMemcpy(host, dev, sizeof(host), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++)
    assert(host[i] == 2 * i || i < 3);
  cudaFree(dev);
  return 0;
}
