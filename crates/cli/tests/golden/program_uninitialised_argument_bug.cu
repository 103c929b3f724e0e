// expect: errors
// flags:
//
// As program_uninitialised_argument.cu, but `limit` is never set: it may
// hold any value, and for 12 the kernel's assertion fails. The run that
// gave it 0 went right; the run that gives it the value the assertion
// compares it with (12) is one of the program's behaviours, so the failure
// is an error, with the value in the witness.
#include <cuda_runtime.h>
#include <assert.h>

__global__ void check(int value, int limit) { assert(value != limit); }

int main() {
  int value = 12, limit;
  check<<<1, 2>>>(value, limit);
  cudaDeviceSynchronize();
  return 0;
}
