// expect: errors
// flags:
//
// The host reads a cudaMalloc'd buffer through its device pointer instead of
// copying it back with cudaMemcpy: on a real GPU this reads garbage or
// crashes. lockstep reports the host line.
#include <cuda_runtime.h>

__global__ void fill(int *a) { a[threadIdx.x] = 1; }

int main() {
  int *d;
  cudaMalloc((void **)&d, 4 * sizeof(int));
  fill<<<1, 4>>>(d);
  int first = d[0];
  cudaFree(d);
  return first;
}
