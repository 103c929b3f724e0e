// expect: errors
// flags:
//
// The defective variant: every thread draws from one shared curandState,
// so each curand_uniform reads and writes that state while the other
// threads do: a data race, as on a GPU.
#include <cuda.h>

#define N 8

__global__ void seed(curandState *state) {
  if (threadIdx.x == 0)
    curand_init(1234, 0, 0, state);
}

__global__ void draw(curandState *state, float *out) { out[threadIdx.x] = curand_uniform(state); }

int main() {
  curandState *state;
  float *out;
  cudaMalloc((void **)&state, sizeof(curandState));
  cudaMalloc((void **)&out, N * sizeof(float));
  seed<<<1, N>>>(state);
  draw<<<1, N>>>(state, out);
  cudaFree(state);
  cudaFree(out);
  return 0;
}
