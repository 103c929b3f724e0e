// expect: verified
// flags:
//
// The program reads a mode and launches one of two kernels for it, then
// checks the result the mode calls for; any other mode, or a failed read,
// ends the program. One run sees one mode: lockstep runs the program once
// per path through its input (a read that fails, mode 0, mode 1, any
// other), with each input found by the solver, and as no other path is
// feasible the program is verified for every input. Compare with
// program_input_paths_mode_bug.cu.
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
  } else if (mode == 1) {
    plus_three<<<1, N>>>(d);
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
