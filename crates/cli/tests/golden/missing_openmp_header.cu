// expect: rejected
// flags: --blockDim=64 --gridDim=1
// A program that includes OpenMP's header, which no CUDA toolkit provides:
// rejected, with a note that says what provides it and how to pass it.
#include <omp.h>

__global__ void fill(int *out) { out[threadIdx.x] = omp_get_max_threads(); }
