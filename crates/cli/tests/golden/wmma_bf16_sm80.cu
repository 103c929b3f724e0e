// expect: unknown
// flags: --blockDim=32 --gridDim=2
// bf16 tensor-core fragments exist only for sm_80 and newer. The
// tensor-core kernel is `unknown` with its line; the bf16 conversion
// kernel beside it is checked.
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;

__global__ void bf16_tile(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

__global__ void to_bf16(const float *in, __nv_bfloat16 *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __float2bfloat16(in[i]);
}
