// C = A * B for square n x n matrices, one element of C per thread, each
// thread walking a row of A and a column of B in global memory. The grid
// covers C exactly.

__global__ void matmul(float *c, const float *a, const float *b, unsigned n) {
  __requires(n == gridDim.x * blockDim.x && n == gridDim.y * blockDim.y);
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (unsigned k = 0; k < n; k++)
    sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}
