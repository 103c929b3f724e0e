// rows_signed_unbounded.cu with the two terms of the sum swapped and the
// product spelled as a multiplication: the same values, and the same
// unbounded loop, whose signed counter may overflow past INT_MAX.

__global__ void rows(int *y, const int *b, int c, int m) {
  __requires(m >= 0);
  __requires(blockDim.x * gridDim.x <= 0x7fffffff);
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += blockDim.x * gridDim.x)
    y[r] = b[r] * 2 + c;
}
