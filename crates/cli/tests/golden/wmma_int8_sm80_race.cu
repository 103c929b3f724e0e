// expect: errors
// flags: --blockDim=32 --gridDim=1
// wmma_int8_sm80.cu with one bug in the plain kernel: two threads write
// each element of `out`, with different values. The race is found although
// the file needs sm_80.
#include <mma.h>
using namespace nvcuda;

__global__ void imma_tile(const signed char *a, const signed char *b, int *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
  wmma::fill_fragment(acc, 0);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

__global__ void widen(const signed char *in, int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i / 2] = in[i] + (int)i;
}
