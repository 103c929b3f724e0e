// expect: rejected
// flags: --blockDim=64 --gridDim=1
// A windowing library's header (GLFW), which no CUDA toolkit provides.
#include <GLFW/glfw3.h>

__global__ void fill(int *out) { out[threadIdx.x] = 1; }
