// expect: verified
// flags:
//
// 2^20 threads each write one byte of an array of ints, four threads to a
// word, each to a byte of its own: the race log compares bytes, so writes
// of different bytes of one word do not race. Compare with
// program_subword_bytes_1m_race.cu, where two threads write each byte.
#include <cuda_runtime.h>

__global__ void tag(unsigned *words, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char *bytes = (unsigned char *)words;
  if (i < n)
    bytes[i] = (unsigned char)(i & 0x7f);
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
