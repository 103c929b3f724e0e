// expect: errors
// flags:
//
// `flag` is declared in the loop body without a value and set only for odd
// elements, so in the iterations over even ones it is indeterminate (C
// gives a variable without an initialiser an indeterminate value each time
// its declaration is reached). With 0 in it the count is right; with all
// bits set it is not, and the host's assertion fails. The report names the
// declaration, line 27, not only the assertion where the value is used.
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
    int flag;
    if (host[i] == 1)
      flag = 1;
    total += flag;
  }
  assert(total == N / 2);
  return 0;
}
