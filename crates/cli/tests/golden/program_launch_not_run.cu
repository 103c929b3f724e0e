// expect: possible-errors
// flags:
//
// The launch has 2^21 threads, more than the interpreter runs for a
// program (2^20), so the run cannot know what the kernel wrote. The host's
// assertion then reads the buffer as the run left it (the kernel's effect
// missing), and fails in that run: that failure is the model's doing, not
// the program's, so it is a possible error, never a confirmed one. The
// kernel itself is proved at the program's launch size. Compare with
// program_launch_not_run_bug.cu, whose kernel writes past the buffer.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdlib.h>

__global__ void twice(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 2.0f * a[i];
}

int main() {
  const int n = 1 << 21;
  float *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = 1.0f;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<n / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  assert(h[n - 1] == 2.0f);
  cudaFree(d);
  free(h);
  return 0;
}
