// expect: verified
// flags:
//
// Host code calls the C library's math functions through pointers: a table
// of them, a pointer picked at run time, and one passed to a helper. A
// call through a pointer to a modelled library function is a call of that
// function, so the host's checks of the results are proved by the run.
#include <cuda_runtime.h>
#include <math.h>
#include <assert.h>

#define N 4

typedef float (*unary)(float);

__global__ void fill(float *x) { x[threadIdx.x] = (float)(threadIdx.x * threadIdx.x); }

float apply(unary f, float x) { return f(x); }

int main() {
  float host[N];
  float *dev;
  cudaMalloc((void **)&dev, sizeof(host));
  fill<<<1, N>>>(dev);
  cudaMemcpy(host, dev, sizeof(host), cudaMemcpyDeviceToHost);
  cudaFree(dev);

  // The kernel squares; the square root undoes it exactly for these values.
  unary table[2] = {cosf, sqrtf};
  for (int i = 0; i < N; i++)
    assert(table[1](host[i]) == (float)i);
  assert(table[0](0.0f) == 1.0f);
  unary pick = host[1] > 0.0f ? fabsf : cosf;
  assert(apply(pick, -2.0f) == 2.0f);
  return 0;
}
