// expect: errors
// flags:
//
// As program_vector_add_1m.cu, but each thread stores its sum one element
// further on: the last of the 2^20 threads writes past the end of `sum`.
// The run finds the write (thread 511 of block 2047), and the host program
// is reported as the launch site.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdlib.h>

__global__ void add(const float *x, const float *y, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    sum[i + 1] = x[i] + y[i];
}

int main() {
  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes), *hs = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i) {
    hx[i] = (float)(i % 7);
    hy[i] = 0.5f;
  }
  float *x, *y, *sum;
  cudaMalloc(&x, bytes);
  cudaMalloc(&y, bytes);
  cudaMalloc(&sum, bytes);
  cudaMemcpy(x, hx, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, bytes, cudaMemcpyHostToDevice);
  add<<<n / 512, 512>>>(x, y, sum, n);
  cudaMemcpy(hs, sum, bytes, cudaMemcpyDeviceToHost);
  assert(hs[n - 1] == (float)((n - 1) % 7) + 0.5f);
  cudaFree(x);
  cudaFree(y);
  cudaFree(sum);
  free(hx);
  free(hy);
  free(hs);
  return 0;
}
