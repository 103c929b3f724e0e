// expect: unknown
// flags:
//
// `rand` is seeded from the clock, so the offset differs from run to run
// and is an address in the kernel: the launch is not data-oblivious, and
// one run does not decide it. It goes to the prover with the range the
// host's computation gives the offset in every run: `rand()` is never
// negative, so `rand() % 4` lies in [0, 3], and each thread writes inside
// the N + 3 elements: the kernel is verified. The host program stays
// unknown, as for input (program_input_bounded.cu): its run is one of
// several. Compare with program_draw_offset_bug.cu.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdlib.h>
#include <time.h>

#define N 64

__global__ void shifted(int *a, int offset) {
  // The bound the buffer has (the prover checks accesses against it as an
  // assertion says it).
  assert(threadIdx.x + offset < N + 3);
  a[threadIdx.x + offset] = offset;
}

int main() {
  srand(time(NULL));
  int offset = rand() % 4;
  int *d;
  cudaMalloc((void **)&d, (N + 3) * sizeof(int));
  shifted<<<1, N>>>(d, offset);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
