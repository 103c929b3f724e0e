// expect: unknown
// flags:
//
// A loop that waits for input the program never gets: every read of a run
// gives the same value, and none of the values lockstep tries is 7. Each
// run stops after a bounded number of reads instead of spending the whole
// step budget, and the program is unknown (nothing is claimed about it).
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void fill(int *x, int v) { x[threadIdx.x] = v; }

int main() {
  int c = 0;
  do {
    if (scanf("%d", &c) != 1)
      c = 0;
  } while (c != 7);
  int *dev;
  cudaMalloc((void **)&dev, 4 * sizeof(int));
  fill<<<1, 4>>>(dev, c);
  cudaFree(dev);
  return 0;
}
