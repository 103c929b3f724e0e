// BUG (wrong tile index): the tile of B is read transposed.
// The matrix product of matmul_naive.cu with shared-memory tiles: for each
// TILE-wide strip of the k dimension, the block loads a TILE x TILE tile of
// A and of B (one element each per thread), waits, and each thread adds the
// strip's products in the same order as the naive loop; a second barrier
// keeps the next strip's loads from overwriting a tile still being read.

#define TILE 16

__global__ void matmul(float *c, const float *a, const float *b, unsigned n) {
  __requires(n == gridDim.x * blockDim.x && n == gridDim.y * blockDim.y);
  __requires(blockDim.x == TILE && blockDim.y == TILE);
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * TILE + ty;
  unsigned col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (unsigned t = 0; t < n / TILE; t++) {
    as[ty][tx] = a[row * n + t * TILE + tx];
    bs[ty][tx] = b[(t * TILE + ty) * n + col];
    __syncthreads();
    for (unsigned k = 0; k < TILE; k++)
      sum += as[ty][k] * bs[tx][k];
    __syncthreads();
  }
  c[row * n + col] = sum;
}
