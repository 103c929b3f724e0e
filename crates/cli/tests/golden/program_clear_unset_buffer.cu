// expect: verified
// flags:
// A buffer fresh from cudaMalloc holds no known value. Each thread clears
// its own element and then copies only that element out, so no thread
// reads what another writes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void clear_then_copy(int *buf, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    buf[i] = 0;
    out[i] = buf[i];
  }
}

int main() {
  const int n = 256;
  int *buf, *out;
  cudaMalloc(&buf, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  clear_then_copy<<<4, 64>>>(buf, out, n);
  int first = -1;
  cudaMemcpy(&first, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("first: %d\n", first);
  cudaFree(buf);
  cudaFree(out);
  return 0;
}
