// expect: errors
// flags:
// As program_clear_unset_buffer, but each thread copies its neighbour's
// element, which another thread clears at the same time: a read-write race.
// The interpreter's stand-in for memory never written is 0, the value the
// clearing thread writes; the race must not pass for a write that leaves
// memory as it was, since the hardware's buffer may hold anything.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void clear_then_copy(int *buf, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    buf[i] = 0;
    if (i + 1 < n) out[i] = buf[i + 1];
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
