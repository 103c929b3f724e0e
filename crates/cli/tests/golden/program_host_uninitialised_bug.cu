// expect: errors
// flags:
//
// The counter `odd` is never initialised, so it starts with an
// indeterminate value. With 0 in it the assertion would hold, which is why
// one run is not enough: for other values (all bits set, -1, say) the
// count is wrong and the assertion fails. That run is one of the program's
// behaviours, so the failure is an error, with the value in the witness.
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
  int odd;
  for (int i = 0; i < N; i++)
    odd += host[i];
  assert(odd == N / 2);
  return 0;
}
