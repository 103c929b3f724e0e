// expect: errors
// flags:
// As program_launch_kernel_api, but the count passed in the argument array
// is one more than the buffers hold: the last thread reads and writes past
// them.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void axpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 3000;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(y, 0, n * sizeof(float));
  float a = 0.5f;
  int count = n + 1;
  void *args[] = {&y, &x, &a, &count};
  dim3 block(128);
  dim3 grid((n + block.x - 1) / block.x);
  if (cudaLaunchKernel((const void *)axpy, grid, block, args, 0, 0) != cudaSuccess) {
    printf("launch failed\n");
    return 1;
  }
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(y);
  return 0;
}
