// expect: errors
// flags:
// The device function returns the first odd element of a row, and leaves
// `value` unassigned when there is none. The host expects 0 for a row
// without odd elements (every row here), as if locals started at zero. The
// interpreter's one value for the uninitialised local happens to be 0, so
// one run of `main` passes; it must not count as the program's only
// behaviour, and a run with another value breaks the host's assertion.
#include <cuda_runtime.h>
#include <assert.h>

#define ROWS 4
#define COLS 8

__device__ int first_odd(const int *row) {
  int value;
  for (int j = 0; j < COLS; j++) {
    if (row[j] % 2 != 0) {
      value = row[j];
      break;
    }
  }
  return value;
}

__global__ void find_odd(const int *m, int *found) {
  found[threadIdx.x] = first_odd(m + threadIdx.x * COLS);
}

int main() {
  int host[ROWS * COLS], found[ROWS];
  for (int i = 0; i < ROWS * COLS; i++)
    host[i] = 2 * i;
  int *m, *dev_found;
  cudaMalloc((void **)&m, sizeof(host));
  cudaMalloc((void **)&dev_found, sizeof(found));
  cudaMemcpy(m, host, sizeof(host), cudaMemcpyHostToDevice);
  find_odd<<<1, ROWS>>>(m, dev_found);
  cudaMemcpy(found, dev_found, sizeof(found), cudaMemcpyDeviceToHost);
  for (int r = 0; r < ROWS; r++)
    assert(found[r] == 0);
  cudaFree(m);
  cudaFree(dev_found);
  return 0;
}
