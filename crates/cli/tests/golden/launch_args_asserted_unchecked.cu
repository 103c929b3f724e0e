// expect: errors
// The wrapper checks only that n is positive: a caller may pass a second
// region that overlaps the first.
#include <assert.h>

__global__ void split_write(int *buf, int n, int second) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    buf[i] = i;
    buf[second + i] = -i;
  }
}

void fill_regions(int *buf, int n, int second) {
  assert(n > 0);
  split_write<<<(n + 127) / 128, 128>>>(buf, n, second);
}
