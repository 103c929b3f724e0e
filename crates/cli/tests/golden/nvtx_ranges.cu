// expect: verified
// flags: --blockDim=128 --gridDim=2
// NVTX is part of the CUDA toolkit (header-only since NVTX 3): a file that
// marks its host code with NVTX ranges compiles, and its kernel is checked.
#include <nvtx3/nvToolsExt.h>

__global__ void square(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * in[i];
}

void run_square(const float *in, float *out, int n) {
  nvtxRangePushA("square");
  square<<<(n + 127) / 128, 128>>>(in, out, n);
  nvtxRangePop();
}
