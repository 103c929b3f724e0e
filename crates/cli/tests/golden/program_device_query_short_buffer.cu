// expect: errors
// flags:
// The same program as program_device_query.cu, except that its buffer is
// sized for one block where the launch has one block per multiprocessor:
// the second block writes past the end of it.
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
  int threads = prop.maxThreadsPerBlock / 4;
  int n = multiprocessors * threads;
  int *device_out;
  cudaMalloc(&device_out, threads * sizeof(int));
  fill<<<multiprocessors, threads>>>(device_out, n);
  cudaFree(device_out);
  return 0;
}
