// expect: errors
// The wrapper starts the second half one element too early: thread n-1's
// first write and thread 0's second write hit the same element.
__global__ void split_write(int *buf, int n, int second) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    buf[i] = i;
    buf[second + i] = -i;
  }
}

void fill_halves(int *buf, int n) {
  split_write<<<(n + 127) / 128, 128>>>(buf, n, n - 1);
}
