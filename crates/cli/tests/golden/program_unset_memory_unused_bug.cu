// expect: errors
// flags:
//
// As program_unset_memory_unused.cu, but the host checks every element,
// including the half it never wrote: the assertion depends on bytes that
// may hold anything, and for most of their values (0 among them) it
// fails. Such a run is one of the program's behaviours: an error.
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
  for (int i = 0; i < N; i++)
    assert(out[i] == 2 * i);
  cudaFree(d_in);
  cudaFree(d_out);
  free(in);
  free(out);
  return 0;
}
