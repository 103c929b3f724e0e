// The dot product of dot_loop.cu with its loop unrolled by four and a
// remainder loop for the last n % 4 columns. The products are added one
// at a time in the original order, so the float results are the same.

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
  for (; k < n; k++)
    acc += row[k] * x[k];
  y[r] = acc;
}
