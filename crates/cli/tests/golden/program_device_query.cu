// expect: verified
// flags: --cuda-headers=toolkit
// A whole program that sizes its launch from the device it runs on: one
// block per multiprocessor, a quarter of the block limit per block. It is
// checked for lockstep's modelled device, whose properties the program's
// own `cudaDeviceProp` (the toolkit's layout here) receives field by field.
#include <cassert>
#include <cstdlib>

__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = i;
  }
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int multiprocessors = 0;
  cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0);
  assert(prop.multiProcessorCount == multiprocessors);
  int threads = prop.maxThreadsPerBlock / 4;
  int n = multiprocessors * threads;
  int *device_out;
  cudaMalloc(&device_out, n * sizeof(int));
  fill<<<multiprocessors, threads>>>(device_out, n);
  int *host_out = (int *)malloc(n * sizeof(int));
  cudaMemcpy(host_out, device_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) {
    assert(host_out[i] == i);
  }
  free(host_out);
  cudaFree(device_out);
  return 0;
}
