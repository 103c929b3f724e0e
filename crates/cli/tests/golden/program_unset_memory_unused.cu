// expect: verified
// flags:
//
// The host fills only the first half of `in`, yet copies all of it to the
// device, and passes a pointer it never set, which the kernel never uses.
// The kernel doubles every element without branching on any of them, and
// the host checks only the half it filled. The never-written bytes and the
// unset pointer are copied and computed with, but no branch, address or
// assertion depends on them, so the one run of the program decides it for
// every value they may hold. Compare with
// program_unset_memory_unused_bug.cu, which checks the other half too.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdlib.h>

#define N 64

__global__ void twice(const int *in, int *out, int *unused) {
  out[threadIdx.x] = 2 * in[threadIdx.x];
}

int main() {
  int *in = (int *)malloc(N * sizeof(int));
  int *out = (int *)malloc(N * sizeof(int));
  int *never_set;
  for (int i = 0; i < N / 2; i++)
    in[i] = i;
  int *d_in, *d_out;
  cudaMalloc((void **)&d_in, N * sizeof(int));
  cudaMalloc((void **)&d_out, N * sizeof(int));
  cudaMemcpy(d_in, in, N * sizeof(int), cudaMemcpyHostToDevice);
  twice<<<1, N>>>(d_in, d_out, never_set);
  cudaMemcpy(out, d_out, N * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N / 2; i++)
    assert(out[i] == 2 * i);
  cudaFree(d_in);
  cudaFree(d_out);
  free(in);
  free(out);
  return 0;
}
