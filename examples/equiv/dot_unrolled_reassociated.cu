// The unrolled dot product with the four products of an iteration summed
// first and then added to the accumulator: fewer dependent additions, but
// floating-point addition is not associative, so the results differ.

__global__ void matvec(float *y, const float *a, const float *x, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  const float *row = a + r * n;
  float acc = 0.0f;
  int k = 0;
  for (; k + 3 < n; k += 4)
    acc += (row[k] * x[k] + row[k + 1] * x[k + 1]) + (row[k + 2] * x[k + 2] + row[k + 3] * x[k + 3]);
  for (; k < n; k++)
    acc += row[k] * x[k];
  y[r] = acc;
}
