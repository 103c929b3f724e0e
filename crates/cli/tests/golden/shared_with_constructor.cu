// expect: unknown
// flags:
// A `__shared__` object of a class with a constructor, as `cuda::barrier`
// is declared in CUDA's samples: nvcc accepts it (with a warning that code
// silences), clang does not, so lockstep says the file is unsupported
// rather than invalid.
struct Tally {
  int count;
  __device__ Tally() : count(0) {}
};

__global__ void tally(int *out) {
  __shared__ Tally t;
  if (threadIdx.x == 0) {
    t.count = 1;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = t.count;
}
