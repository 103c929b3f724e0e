// expect: verified
// flags:
// As program_uninitialised_result.cu, but `value` starts at 0: every value
// the kernel stores is defined, the program is deterministic, and its one
// run is its only behaviour.
#include <cuda_runtime.h>
#include <assert.h>

#define ROWS 4
#define COLS 8

__device__ int first_odd(const int *row) {
  int value = 0;
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
