// expect: errors
// flags:
//
// As program_subword_bytes_1m.cu, but thread i writes byte i / 2: threads
// 2k and 2k + 1 write the same byte, with different values, and race. The
// run reports the race with both threads.
#include <cuda_runtime.h>

__global__ void tag(unsigned *words, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char *bytes = (unsigned char *)words;
  if (i < n)
    bytes[i / 2] = (unsigned char)(i & 0x7f);
}

int main() {
  const int n = 1 << 20;
  unsigned *words;
  cudaMalloc(&words, n);
  tag<<<n / 256, 256>>>(words, n);
  cudaDeviceSynchronize();
  cudaFree(words);
  return 0;
}
