// expect: verified
// flags:
//
// The operation comes from input and reaches the kernel as an argument:
// the kernel branches on it, and so does the host when it checks the
// result. A run records the kernel's branches on the input with the
// host's, so each run stands for every input that takes its path, and the
// paths (a failed read, 1, anything else) cover every input. Compare with
// program_input_paths_kernel_branch_bug.cu.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>

#define N 16

__global__ void apply(int *x, int op) {
  int i = threadIdx.x;
  if (op == 1)
    x[i] = x[i] * 2;
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
