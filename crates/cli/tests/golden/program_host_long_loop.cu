// expect: verified
// flags:
//
// A deterministic host loop of three million iterations (some 27 million
// interpreter steps, more than the host's old budget of 20 million) that
// computes a checksum before the launch. The run of main gets through it
// within the host step budget, so the program is proved by its one run.
#include <cuda_runtime.h>
#include <assert.h>

#define N 3000000u

__global__ void tag(unsigned int *x, unsigned int sum) { x[threadIdx.x] = sum + threadIdx.x; }

int main() {
  unsigned int sum = 0;
  for (unsigned int i = 0; i < N; i++)
    sum += i ^ (i >> 3);
  // The checksum of the loop above, computed independently (mod 2^32).
  assert(sum == 4180284576u);

  unsigned int host[4];
  unsigned int *dev;
  cudaMalloc((void **)&dev, sizeof(host));
  tag<<<1, 4>>>(dev, sum);
  cudaMemcpy(host, dev, sizeof(host), cudaMemcpyDeviceToHost);
  cudaFree(dev);
  for (int i = 0; i < 4; i++)
    assert(host[i] == sum + i);
  return 0;
}
