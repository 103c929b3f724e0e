// expect: verified
// flags:
//
// A whole CUDA program: main allocates host and device buffers, copies the
// inputs over, launches the kernel with a configuration computed from n,
// copies the result back and checks it. The program is deterministic (rand()
// is not seeded from the clock), so running it with every thread of its one
// launch covers its only behaviour: the kernel and the host checks are
// verified for this program.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdlib.h>

__global__ void vector_add(const int *a, const int *b, int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main() {
  const int n = 1000;
  size_t bytes = n * sizeof(int);
  int *a = (int *)malloc(bytes), *b = (int *)malloc(bytes), *c = (int *)malloc(bytes);
  for (int i = 0; i < n; i++) {
    a[i] = rand() % 100;
    b[i] = i;
  }
  int *d_a, *d_b, *d_c;
  cudaMalloc((void **)&d_a, bytes);
  cudaMalloc((void **)&d_b, bytes);
  cudaMalloc((void **)&d_c, bytes);
  cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice);
  int block = 128;
  vector_add<<<(n + block - 1) / block, block>>>(d_a, d_b, d_c, n);
  cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    assert(c[i] == a[i] + i);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
  free(a);
  free(b);
  free(c);
  return 0;
}
