// An integer row sum of an m x n row-major matrix with several rows per
// thread for any launch: the rows r, r + stride, r + 2 stride, ... of a
// grid-stride loop, each summed by an inner loop.

__global__ void rowsum(int *out, const int *in, unsigned m, unsigned n) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += stride) {
    int sum = 0;
    for (unsigned k = 0; k < n; k++)
      sum += in[r * n + k];
    out[r] = sum;
  }
}
