// One dot product per thread: row r of the m x n matrix `a` times the
// vector `x`, with a plain loop over the n columns (n is an argument, so
// the trip count is symbolic).

__global__ void matvec(float *y, const float *a, const float *x, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; k++)
    acc += a[r * n + k] * x[k];
  y[r] = acc;
}
