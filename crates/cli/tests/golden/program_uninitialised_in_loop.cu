// expect: verified
// flags:
//
// As program_uninitialised_in_loop_bug.cu, but `flag` starts at 0 in each
// iteration: the program has one behaviour, and its run proves the host's
// assertion.
//
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
  int total = 0;
  for (int i = 0; i < N; i++) {
    // One line between the declaration and its first use.
    int flag = 0;
    if (host[i] == 1)
      flag = 1;
    total += flag;
  }
  assert(total == N / 2);
  return 0;
}
