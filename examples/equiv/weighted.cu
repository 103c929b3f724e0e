// The reference: each thread combines four consecutive inputs with weights
// 1..4, scales the sum by 8 and adds its own index written as
// (i / 4) * 4 + i % 4.

__global__ void weighted(unsigned *out, const unsigned *in, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned acc = 0;
    for (unsigned k = 0; k < 4; k++)
      acc += in[i * 4 + k] * (k + 1);
    out[i] = acc * 8 + (i / 4) * 4 + i % 4;
  }
}
