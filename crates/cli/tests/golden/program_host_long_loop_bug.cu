// expect: errors
// flags:
//
// The defective variant: the loop stops one iteration early (`<` for `<=`
// in a loop meant to include N), so the checksum misses the last term and
// the host's assertion fails. The failure is at the end of a loop of three
// million iterations, which the host step budget lets the run reach.
#include <cuda_runtime.h>
#include <assert.h>

#define N 3000000u

__global__ void tag(unsigned int *x, unsigned int sum) { x[threadIdx.x] = sum + threadIdx.x; }

int main() {
  unsigned int sum = 0;
  for (unsigned int i = 0; i < N; i++)
    sum += i ^ (i >> 3);
  // The checksum of the terms 0..N, N included (mod 2^32).
  assert(sum == 4180284576u + (N ^ (N >> 3)));

  unsigned int host[4];
  unsigned int *dev;
  cudaMalloc((void **)&dev, sizeof(host));
  tag<<<1, 4>>>(dev, sum);
  cudaMemcpy(host, dev, sizeof(host), cudaMemcpyDeviceToHost);
  cudaFree(dev);
  return 0;
}
