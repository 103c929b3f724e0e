// A wrong strength reduction: (i / 4) * 4 became i & ~7u instead of
// i & ~3u, which loses bit 2 of the index.

__global__ void weighted(unsigned *out, const unsigned *in, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned idx = i << 2, w = 1, acc = 0;
    for (unsigned k = 0; k < 4; k++) {
      acc += in[idx++] * w;
      w++;
    }
    out[i] = (acc << 3) + (i & ~7u) + (i & 3u);
  }
}
