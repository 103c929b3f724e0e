// The reference matrix transpose: each thread copies one element.
// `in` is height x width (row-major), `out` is width x height.
// Reads are coalesced, writes are strided by `height`.

__global__ void transpose(float *out, const float *in, unsigned width, unsigned height) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    out[x * height + y] = in[y * width + x];
}
