// expect: errors
// flags:
// As program_launch_cooperative, but the partial maxima are combined
// before the grid synchronises: block 0 reads the other blocks' partial
// results while they are being written.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void grid_max(const int *in, int *partial, int *result, int n) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int best;
  if (threadIdx.x == 0) best = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicMax(&best, in[i]);
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = best;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int m = partial[0];
    for (unsigned b = 1; b < gridDim.x; ++b) m = max(m, partial[b]);
    *result = m;
  }
  grid.sync();
}

int main() {
  const int n = 4096, blocks = 8, threads = 64;
  int *in, *partial, *result;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&partial, blocks * sizeof(int));
  cudaMalloc(&result, sizeof(int));
  int *values = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) values[i] = (i * 37) % 1009;
  cudaMemcpy(in, values, n * sizeof(int), cudaMemcpyHostToDevice);
  int count = n;
  void *args[] = {&in, &partial, &result, &count};
  cudaError_t err = cudaLaunchCooperativeKernel((void *)grid_max, dim3(blocks), dim3(threads), args, 0, 0);
  if (err != cudaSuccess) {
    printf("cooperative launch failed\n");
    return 1;
  }
  int host = -1;
  cudaMemcpy(&host, result, sizeof(int), cudaMemcpyDeviceToHost);
  printf("max %d\n", host);
  cudaFree(in);
  cudaFree(partial);
  cudaFree(result);
  free(values);
  return 0;
}
