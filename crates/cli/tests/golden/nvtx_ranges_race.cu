// expect: errors
// flags: --blockDim=128 --gridDim=2
// nvtx_ranges.cu with one bug: each thread also writes its neighbour's
// element.
#include <nvtx3/nvToolsExt.h>

__global__ void square(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) {
    out[i] = in[i] * in[i];
    out[i + 1] = -1.0f;
  }
}

void run_square(const float *in, float *out, int n) {
  nvtxRangePushA("square");
  square<<<(n + 127) / 128, 128>>>(in, out, n);
  nvtxRangePop();
}
