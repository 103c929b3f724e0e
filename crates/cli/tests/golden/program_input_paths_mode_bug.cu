// expect: errors
// flags:
//
// As program_input_paths_mode.cu, but a third mode, chosen by a number
// whose square is 49, launches one thread more than the buffer holds. No
// value the program compares its input with (49) reaches that launch;
// the solver finds one that does (7, or another square root of 49 modulo
// 2^32), and the run with it confirms the out-of-bounds write, the input
// in the witness.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>

#define N 8

__global__ void twice(int *x) { x[threadIdx.x] = 2 * threadIdx.x; }
__global__ void plus_three(int *x) { x[threadIdx.x] = threadIdx.x + 3; }

int main() {
  int mode;
  if (scanf("%d", &mode) != 1) {
    printf("no mode given\n");
    return 1;
  }
  int h[N];
  int *d;
  cudaMalloc((void **)&d, N * sizeof(int));
  if (mode == 0) {
    twice<<<1, N>>>(d);
  } else if (mode * mode == 49) {
    plus_three<<<1, N + 1>>>(d);
  } else {
    printf("mode %d is not known\n", mode);
    cudaFree(d);
    return 1;
  }
  cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; i++) {
    if (mode == 0)
      assert(h[i] == 2 * i);
    else
      assert(h[i] == i + 3);
  }
  cudaFree(d);
  return 0;
}
