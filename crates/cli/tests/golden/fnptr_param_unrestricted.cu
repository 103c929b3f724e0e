// expect: errors
// flags: --blockDim=128 --gridDim=4
// As fnptr_param_restricted.cu without the precondition: the host may pass
// any value for the function pointer (null, say), and a call through a
// pointer that is no function's address is a null-pointer access.
typedef unsigned (*mix_fn)(unsigned, unsigned);

__device__ unsigned rotate_mix(unsigned x, unsigned k) { return (x << 3 | x >> 29) ^ k; }
__device__ unsigned add_mix(unsigned x, unsigned k) { return x + 7 * k; }

__global__ void scramble(unsigned *data, mix_fn mix, unsigned key) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = mix(data[i], key + i);
}
