// expect: errors
// flags: --blockDim=128 --gridDim=16 --cuda-headers=toolkit
// A warp sum with __shfl_down_sync from the CUDA toolkit's headers (NVVM's
// shfl.sync intrinsics), but lanes 0 and 16 both write the warp's slot.
__global__ void warp_sum(const float *in, float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  if ((threadIdx.x & 15) == 0) {
    out[i / 32] = v;
  }
}
