// expect: verified
// flags:
//
// A vector add of 2^20 floats, one thread per element: the largest launch
// the interpreter runs for a program (`MAX_LAUNCH_THREADS`). The program is
// deterministic, so its one run decides it: every thread's accesses are
// logged for races and bounds, and the host's check of the result holds.
// Compare with program_vector_add_1m_bug.cu, whose kernel writes one
// element further.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdlib.h>

__global__ void add(const float *x, const float *y, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    sum[i] = x[i] + y[i];
}

int main() {
  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes), *hs = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i) {
    hx[i] = (float)(i % 7);
    hy[i] = 0.5f;
  }
  float *x, *y, *sum;
  cudaMalloc(&x, bytes);
  cudaMalloc(&y, bytes);
  cudaMalloc(&sum, bytes);
  cudaMemcpy(x, hx, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, bytes, cudaMemcpyHostToDevice);
  add<<<n / 512, 512>>>(x, y, sum, n);
  cudaMemcpy(hs, sum, bytes, cudaMemcpyDeviceToHost);
  assert(hs[n - 1] == (float)((n - 1) % 7) + 0.5f);
  cudaFree(x);
  cudaFree(y);
  cudaFree(sum);
  free(hx);
  free(hy);
  free(hs);
  return 0;
}
