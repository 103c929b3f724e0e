// The row sum of rowsum_loop.cu unrolled by four, with a remainder loop for
// the last n % 4 columns; the additions happen in the same order.

__global__ void rowsum(int *out, const int *in, unsigned n) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  const int *row = in + r * n;
  int sum = 0;
  unsigned k = 0;
  for (; k + 4 <= n; k += 4) {
    sum += row[k];
    sum += row[k + 1];
    sum += row[k + 2];
    sum += row[k + 3];
  }
  for (; k < n; k++)
    sum += row[k];
  out[r] = sum;
}
