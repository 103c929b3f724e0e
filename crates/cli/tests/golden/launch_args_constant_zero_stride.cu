// expect: errors
// The same kernel launched with a stride of 0: every thread writes
// out[offset], a write-write race between any two threads.
__global__ void scatter(int *out, int n, int stride, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * stride + offset] = i;
}

void broadcast_last(int *out, int n) {
  scatter<<<(n + 255) / 256, 256>>>(out, n, 0, 1);
}
