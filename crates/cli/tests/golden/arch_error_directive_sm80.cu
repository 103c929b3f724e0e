// expect: verified
// flags: --blockDim=64 --gridDim=2
// A file that refuses older GPUs with `#error` when `__CUDA_ARCH__` is
// below 800: clang rejects it for lockstep's default sm_70, and the error,
// raised by an `#error` directive, is one another architecture can make go
// away, so the file is compiled again for sm_80, where it is checked.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "this file needs compute capability 8.0"
#endif

__global__ void scale_rows(float *out, const float *in, float factor) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * factor;
}
