// The k-unrolled product with the second product of each pair reading the
// wrong element of B (row k instead of row k + 1).

__global__ void matmul(float *c, const float *a, const float *b, unsigned n) {
  __requires(n == gridDim.x * blockDim.x && n == gridDim.y * blockDim.y);
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  unsigned k = 0;
  for (; k + 2 <= n; k += 2) {
    sum += a[row * n + k] * b[k * n + col];
    sum += a[row * n + k + 1] * b[k * n + col];
  }
  if (k < n)
    sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}
