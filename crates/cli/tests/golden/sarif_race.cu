// expect: errors
// flags: --blockDim=32 --gridDim=1 --format=sarif
// SARIF output: the confirmed race is an `error` result with both
// locations and the witness in its properties.

__global__ void shift(int *a) {
  a[threadIdx.x + 1] = a[threadIdx.x];
}
