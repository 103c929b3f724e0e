// expect: errors
// `program_formatted_labels.cu` with one bug: the text `sprintf` writes
// (" 1000|ff |2.50" and its NUL, 15 bytes) does not fit the 12-byte buffer,
// a host buffer overflow.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void scale(float *v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= s;
}

int main() {
  char label[16];
  int written = snprintf(label, sizeof(label), "buffer-%d-of-%s", 3, "a-very-long-set");
  assert(written == 27 && strlen(label) == sizeof(label) - 1);
  char size_text[12];
  sprintf(size_text, "%5d|%-3x|%.2f", 1000, 255, 2.5);
  int n = atoi(size_text);
  assert(n == 1000 && strcmp(size_text + 6, "ff |2.50") == 0);
  float *v;
  cudaMalloc(&v, n * sizeof(float));
  cudaMemset(v, 0, n * sizeof(float));
  scale<<<(n + 255) / 256, 256>>>(v, 2.0f, n);
  cudaDeviceSynchronize();
  printf("%s %s\n", label, size_text);
  cudaFree(v);
  return 0;
}
