// expect: verified
// flags: --blockDim=32 --gridDim=4
// A device function that asserts at compile time that it is built for
// sm_80 or newer: the failed `static_assert` under sm_70 may depend on the
// architecture, so the file is compiled again for sm_80 and checked there.
__device__ int twice(int v) {
#ifdef __CUDA_ARCH__
  static_assert(__CUDA_ARCH__ >= 800, "built for compute capability 8.0 or newer");
#endif
  return 2 * v;
}

__global__ void double_all(int *data) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = twice(data[i]);
}
