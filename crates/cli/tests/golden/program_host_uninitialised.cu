// expect: verified
// flags:
//
// Every host variable is initialised before it is read, so the program has
// one behaviour and its run proves the host's assertion. Compare with
// program_host_uninitialised_bug.cu, whose counter starts indeterminate.
#include <cuda_runtime.h>
#include <assert.h>

#define N 8

__global__ void mark(int *x) { x[threadIdx.x] = threadIdx.x % 2; }

int main() {
  int host[N];
  int *dev;
  cudaMalloc((void **)&dev, sizeof(host));
  mark<<<1, N>>>(dev);
  cudaMemcpy(host, dev, sizeof(host), cudaMemcpyDeviceToHost);
  cudaFree(dev);
  int odd = 0;
  for (int i = 0; i < N; i++)
    odd += host[i];
  assert(odd == N / 2);
  return 0;
}
