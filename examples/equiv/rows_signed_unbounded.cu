// rows_signed_shifted.cu without the bound on m: for m near INT_MAX the
// signed `r += stride` of the last rows overflows (undefined in C; on a
// GPU a negative row that the loop goes on writing).

__global__ void rows(int *y, const int *b, int c, int m) {
  __requires(m >= 0);
  __requires(blockDim.x * gridDim.x <= 0x7fffffff);
  int first = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = first; r < m; r += gridDim.x * blockDim.x)
    y[r] = c + (b[r] << 1);
}
