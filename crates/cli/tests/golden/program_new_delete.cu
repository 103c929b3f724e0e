// expect: verified
// flags:
// A whole program whose host buffer comes from C++ `new[]`, which never
// returns null, and goes back with `delete[]`; `delete` of null does nothing.
#include <cstdio>

__global__ void fill(int *a) { a[threadIdx.x] = threadIdx.x; }

int main() {
  int *h = new int[64];
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  fill<<<1, 64>>>(d);
  cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  int *none = nullptr;
  delete none;
  printf("%d\n", h[63]);
  delete[] h;
  cudaFree(d);
  return 0;
}
