// expect: errors
// flags: --blockDim=64 --gridDim=2
// As `arch_error_directive_sm80.cu`, compiled for sm_80 after its `#error`
// for older GPUs, with one bug: every thread of a block writes the block's
// first element, a race the check must still find.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "this file needs compute capability 8.0"
#endif

__global__ void scale_rows(float *out, const float *in, float factor) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[blockIdx.x * blockDim.x] = in[i] * factor + threadIdx.x;
}
