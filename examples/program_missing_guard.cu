// expect: errors
// flags:
//
// The same program with the kernel's `i < n` guard forgotten: the launch
// rounds 1000 elements up to 8 blocks of 128 threads, and threads 1000..1023
// read and write past the 4000-byte device buffers that main allocated. The
// report names the kernel line and the launch in main.
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void vector_add(const int *a, const int *b, int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}

int main() {
  const int n = 1000;
  size_t bytes = n * sizeof(int);
  int *a = (int *)calloc(n, sizeof(int));
  int *d_a, *d_b, *d_c;
  cudaMalloc((void **)&d_a, bytes);
  cudaMalloc((void **)&d_b, bytes);
  cudaMalloc((void **)&d_c, bytes);
  cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, a, bytes, cudaMemcpyHostToDevice);
  int block = 128;
  vector_add<<<(n + block - 1) / block, block>>>(d_a, d_b, d_c, n);
  cudaMemcpy(a, d_c, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
  free(a);
  return 0;
}
