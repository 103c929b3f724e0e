// expect: verified
// Issue #16: no launch sizes given (symbolic blockDim/gridDim).
// Centre each row of a matrix: block r owns row r. Its threads add up
// their columns (block-strided) into one shared total, then subtract the
// row's mean from their columns. The address `r * cols + c` is computed
// inside each loop, so a write logged in an earlier iteration stays in its
// row only by the no-wrap promise of that iteration's `r * cols + c`.
__global__ void center_rows(float *a, int cols) {
  __shared__ float total;
  if (threadIdx.x == 0)
    total = 0.0f;
  __syncthreads();
  int r = blockIdx.x;
  float mine = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    mine += a[r * cols + c];
  atomicAdd(&total, mine);
  __syncthreads();
  float mean = total / (float)cols;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    a[r * cols + c] -= mean;
}
