// expect: errors
// flags: --check-array-bounds
// The wrapper passes one less than the block's width: the last thread
// reads tile[-1].
__global__ void reverse_block(int *out, const int *in, unsigned width) {
  __shared__ int tile[1024];
  unsigned t = threadIdx.x;
  tile[t] = in[t];
  __syncthreads();
  out[t] = tile[width - 1 - t];
}

void reverse(int *out, const int *in, unsigned threads) {
  reverse_block<<<1, threads>>>(out, in, threads - 1);
}
