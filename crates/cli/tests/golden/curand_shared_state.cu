// expect: errors
// flags: --blockDim=2 --gridDim=1
// Both threads advance one generator state.
#include <curand_kernel.h>

__global__ void k(curandState *state, float *out) {
  out[threadIdx.x] = curand_uniform(state);
}
