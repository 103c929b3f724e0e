// expect: errors
// flags:
//
// A kernel that takes a struct by value holding a device pointer, launched
// with two blocks of four threads: every block writes the same four
// elements, an inter-block race. The launch's arguments, struct included,
// are the program's own.
#include <cuda_runtime.h>

struct View {
  int *data;
  int length;
};

__global__ void stamp(View v) {
  if (threadIdx.x < v.length)
    v.data[threadIdx.x] = blockIdx.x;
}

int main() {
  View v;
  cudaMalloc((void **)&v.data, 4 * sizeof(int));
  v.length = 4;
  stamp<<<2, 4>>>(v);
  cudaDeviceSynchronize();
  cudaFree(v.data);
  return 0;
}
