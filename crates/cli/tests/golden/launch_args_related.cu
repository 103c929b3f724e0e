// expect: verified
// One buffer holds two halves: thread i writes element i of the first half
// and element i of the second, which starts at `second`. The halves do not
// overlap when `second >= n`; the wrapper passes `second = n`, so the
// kernel is checked with that relation between its arguments.
__global__ void split_write(int *buf, int n, int second) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    buf[i] = i;
    buf[second + i] = -i;
  }
}

void fill_halves(int *buf, int n) {
  split_write<<<(n + 127) / 128, 128>>>(buf, n, n);
}
