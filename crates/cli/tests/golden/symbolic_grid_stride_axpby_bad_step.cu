// expect: errors
// Issue #16: no launch sizes given (symbolic blockDim/gridDim).
// The bug: the step is blockDim.x, not the grid's thread count, so block 1 meets block 0's second element.
// A grid-stride loop: each thread handles elements first, first + T,
// first + 2T, ... where T is the number of threads in the grid.
__global__ void axpby(int n, float a, float b, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
    y[i] = a * x[i] + b * y[i];
}
