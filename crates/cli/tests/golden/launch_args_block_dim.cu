// expect: verified
// flags: --check-array-bounds
// A single-block reversal that takes the block's width as an argument
// instead of reading blockDim.x. The wrapper passes the width it launches
// with, so `width == blockDim.x` and every index stays in [0, width).
__global__ void reverse_block(int *out, const int *in, unsigned width) {
  __shared__ int tile[1024];
  unsigned t = threadIdx.x;
  tile[t] = in[t];
  __syncthreads();
  out[t] = tile[width - 1 - t];
}

void reverse(int *out, const int *in, unsigned threads) {
  reverse_block<<<1, threads>>>(out, in, threads);
}
