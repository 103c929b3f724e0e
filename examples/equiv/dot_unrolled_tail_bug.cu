// The unrolled dot product with a remainder loop that starts over at
// column 0 instead of where the unrolled loop stopped: the first n % 4
// products are added twice and the last n % 4 are missing.

__global__ void matvec(float *y, const float *a, const float *x, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  const float *row = a + r * n;
  float acc = 0.0f;
  int k = 0;
  for (; k + 3 < n; k += 4) {
    acc += row[k] * x[k];
    acc += row[k + 1] * x[k + 1];
    acc += row[k + 2] * x[k + 2];
    acc += row[k + 3] * x[k + 3];
  }
  for (int j = 0; j < n - k; j++)
    acc += row[j] * x[j];
  y[r] = acc;
}
