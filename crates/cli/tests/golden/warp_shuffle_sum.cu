// expect: verified
// flags: --blockDim=128 --gridDim=16 --cuda-headers=toolkit
// A warp sum with __shfl_down_sync from the CUDA toolkit's headers (NVVM's
// shfl.sync intrinsics); lane 0 of each warp writes its warp's sum.
__global__ void warp_sum(const float *in, float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  if ((threadIdx.x & 31) == 0) {
    out[i / 32] = v;
  }
}
