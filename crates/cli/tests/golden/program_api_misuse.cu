// expect: errors
// flags:
//
// Host-side misuse of the CUDA runtime: the copy back is twice as large as
// the device buffer, and the device buffer is freed twice.
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void fill(int *out) { out[threadIdx.x] = threadIdx.x; }

int main() {
  int *host = (int *)malloc(64 * sizeof(int));
  int *dev;
  cudaMalloc((void **)&dev, 32 * sizeof(int));
  fill<<<1, 32>>>(dev);
  cudaMemcpy(host, dev, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dev);
  cudaFree(dev);
  free(host);
  return 0;
}
