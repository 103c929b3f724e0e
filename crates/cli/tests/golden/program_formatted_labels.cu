// expect: verified
// A whole program that names its buffers with `snprintf` and `sprintf`
// before using them: the formatted bytes are written as C writes them, so
// the run goes on and checks the launch. `snprintf` truncates a long name
// to its buffer; the launch size comes from a number parsed back out of
// a formatted string, so the run must format it exactly.
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
  char size_text[32];
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
