// The naive transpose (of integers) with its specification: after the launch, every
// in-range element of `out` holds the transposed element of `in`. Each
// thread states the property for its own (x, y); over all threads of all
// blocks this covers the whole output array.

__global__ void transpose(int *out, const int *in, unsigned width, unsigned height) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  __ensures(__implies(x < width && y < height, out[x * height + y] == in[y * width + x]));
  if (x < width && y < height)
    out[x * height + y] = in[y * width + x];
}
