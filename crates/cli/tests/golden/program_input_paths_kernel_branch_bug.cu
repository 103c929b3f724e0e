// expect: errors
// flags:
//
// As program_input_paths_kernel_branch.cu, but the kernel subtracts for
// the operations whose square is 49 (7, and the other square roots of 49
// modulo 2^32), which the host's check does not expect: the solver finds
// such an input from the kernel's branch, and the run with it fails the
// host's assertion, the input in the witness.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>

#define N 16

__global__ void apply(int *x, int op) {
  int i = threadIdx.x;
  if (op == 1)
    x[i] = x[i] * 2;
  else if (op * op == 49)
    x[i] = x[i] - 1;
  else
    x[i] = x[i] + 1;
}

int main() {
  int op = 1;
  scanf("%d", &op);
  int h[N];
  for (int i = 0; i < N; i++)
    h[i] = i;
  int *d;
  cudaMalloc((void **)&d, N * sizeof(int));
  cudaMemcpy(d, h, N * sizeof(int), cudaMemcpyHostToDevice);
  apply<<<1, N>>>(d, op);
  cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; i++) {
    if (op == 1)
      assert(h[i] == 2 * i);
    else
      assert(h[i] == i + 1);
  }
  cudaFree(d);
  return 0;
}
