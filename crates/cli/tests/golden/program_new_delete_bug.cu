// expect: errors
// flags:
// As program_new_delete.cu, but the host buffer is deleted twice.
#include <cstdio>

__global__ void fill(int *a) { a[threadIdx.x] = threadIdx.x; }

int main() {
  int *h = new int[64];
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  fill<<<1, 64>>>(d);
  cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", h[63]);
  delete[] h;
  delete[] h;
  cudaFree(d);
  return 0;
}
