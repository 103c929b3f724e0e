// rows_signed_shifted.cu with one bug: the loop runs while r <= m, so the
// thread that owns row m writes one row past the end of the rows (y[m]).

__global__ void rows(int *y, const int *b, int c, int m) {
  __requires(m >= 0);
  __requires(blockDim.x * gridDim.x <= 0x7fffffff);
  __requires(m <= 0x7fffffff - blockDim.x * gridDim.x);
  int first = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = first; r <= m; r += gridDim.x * blockDim.x)
    y[r] = c + (b[r] << 1);
}
