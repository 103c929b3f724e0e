// expect: verified
// flags:
//
// The kernel asserts that its two arguments differ; the host sets both
// before the launch, so the one run decides the program. Compare with
// program_uninitialised_argument_bug.cu, which never sets `limit`.
#include <cuda_runtime.h>
#include <assert.h>

__global__ void check(int value, int limit) { assert(value != limit); }

int main() {
  int value = 12, limit;
  limit = 48;
  check<<<1, 2>>>(value, limit);
  cudaDeviceSynchronize();
  return 0;
}
