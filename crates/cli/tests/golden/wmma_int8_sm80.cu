// expect: unknown
// flags: --blockDim=32 --gridDim=1
// int8 tensor-core fragments exist only for sm_72 and newer: the file is
// compiled for sm_80. lockstep does not model the tensor-core operations,
// so the kernel that uses them is `unknown` with the line of the first one;
// the plain kernel of the same file is still checked.
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
  out[i] = in[i];
}
