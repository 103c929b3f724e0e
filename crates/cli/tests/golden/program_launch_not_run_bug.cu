// expect: possible-errors
// flags:
//
// As program_launch_not_run.cu, a launch the interpreter does not run
// (2^20 threads and one block more than the data needs, past the 2^20 it
// runs), and the kernel's guard is off by one: thread n writes one element
// past the buffer. The kernel goes to the
// engines at the program's launch size, with the size of the buffer the
// program passes, and the write is found there. (The program has no host
// assertion: the kernel's write alone decides its verdict.)
#include <cuda_runtime.h>
#include <assert.h>
#include <stdlib.h>

__global__ void twice(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    a[i] = 2.0f * a[i];
}

int main() {
  const int n = 1 << 20;
  float *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = 1.0f;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<n / 256 + 1, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  free(h);
  return 0;
}
