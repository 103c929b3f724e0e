// expect: verified
// The same two-region kernel, launched by a wrapper that takes both sizes
// from its caller and asserts that the regions do not overlap: the
// assertion holds whenever the launch runs, so the kernel is checked under it.
#include <assert.h>

__global__ void split_write(int *buf, int n, int second) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    buf[i] = i;
    buf[second + i] = -i;
  }
}

void fill_regions(int *buf, int n, int second) {
  assert(n > 0 && second >= n);
  split_write<<<(n + 127) / 128, 128>>>(buf, n, second);
}
