// expect: unknown
// flags:
//
// curandState as ESBMC-GPU's programs use it: <cuda.h> alone makes cuRAND's
// device API visible. Each thread owns its generator state, so the kernels
// are race-free and verified. cuRAND's draws are values the model leaves
// open (any float in (0, 1] for curand_uniform), so the host's run is one
// behaviour among several: the host program is unknown, never a false
// error on the range it asserts.
#include <cuda.h>
#include <assert.h>

#define N 8

__global__ void seed(curandState *states) { curand_init(1234, threadIdx.x, 0, &states[threadIdx.x]); }

__global__ void draw(curandState *states, float *out) {
  curandState local = states[threadIdx.x];
  out[threadIdx.x] = curand_uniform(&local);
  states[threadIdx.x] = local;
}

int main() {
  curandState *states;
  float *out;
  float host[N];
  cudaMalloc((void **)&states, N * sizeof(curandState));
  cudaMalloc((void **)&out, N * sizeof(float));
  seed<<<1, N>>>(states);
  draw<<<1, N>>>(states, out);
  cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; i++)
    assert(host[i] > 0.0f && host[i] <= 1.0f);
  cudaFree(states);
  cudaFree(out);
  return 0;
}
