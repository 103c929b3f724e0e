// expect: errors
// flags:
//
// The defective variant: the table's entries are swapped, so the host takes
// the cosine of each square where it meant the square root, and its check
// fails for element 1 (cos(1) is not 1). The call through the pointer runs
// the modelled cosf, so the run of the program shows the failure.
#include <cuda_runtime.h>
#include <math.h>
#include <assert.h>

#define N 4

typedef float (*unary)(float);

__global__ void fill(float *x) { x[threadIdx.x] = (float)(threadIdx.x * threadIdx.x); }

int main() {
  float host[N];
  float *dev;
  cudaMalloc((void **)&dev, sizeof(host));
  fill<<<1, N>>>(dev);
  cudaMemcpy(host, dev, sizeof(host), cudaMemcpyDeviceToHost);
  cudaFree(dev);

  unary table[2] = {sqrtf, cosf};
  for (int i = 0; i < N; i++)
    assert(table[1](host[i]) == (float)i || i == 0);
  return 0;
}
