// expect: errors
// flags: --cuda-headers=toolkit
// As program_launch_kernel_ex, but the configuration asks for dynamic
// shared memory for half a tile only: the upper half of each block writes
// past the end of `tile`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void rotate_tiles(int *data, int n) {
  extern __shared__ int tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tile[threadIdx.x] = data[i];
  __syncthreads();
  int from = (threadIdx.x + 1) % blockDim.x;
  int j = blockIdx.x * blockDim.x + from;
  if (i < n && j < n) data[i] = tile[from];
}

int main() {
  const int n = 1024;
  int *host = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) host[i] = i * 3;
  int *data;
  cudaMalloc(&data, n * sizeof(int));
  cudaMemcpy(data, host, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(n / 128);
  config.blockDim = dim3(128);
  config.dynamicSmemBytes = 64 * sizeof(int);
  config.stream = 0;
  config.attrs = nullptr;
  config.numAttrs = 0;
  if (cudaLaunchKernelEx(&config, rotate_tiles, data, n) != cudaSuccess) {
    printf("launch failed\n");
    return 1;
  }
  cudaMemcpy(host, data, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", host[0]);
  cudaFree(data);
  free(host);
  return 0;
}
