// expect: verified
// flags:
// A program that launches through the runtime API's argument array,
// `cudaLaunchKernel(func, grid, block, args, shared, stream)`: the host run
// takes the launch's sizes and arguments from it as from `<<<>>>`, and
// checks the kernel on the program's own data.
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
  int count = n;
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
