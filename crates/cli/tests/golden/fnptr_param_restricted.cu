// expect: verified
// flags: --blockDim=128 --gridDim=4
// The kernel applies a function-pointer argument to its element. The
// precondition restricts the pointer to one of two functions of its type,
// so every call reaches a function (and the precondition is not vacuous:
// a function-pointer argument is a value the host chooses, not a buffer).
typedef unsigned (*mix_fn)(unsigned, unsigned);

__device__ unsigned rotate_mix(unsigned x, unsigned k) { return (x << 3 | x >> 29) ^ k; }
__device__ unsigned add_mix(unsigned x, unsigned k) { return x + 7 * k; }

__global__ void scramble(unsigned *data, mix_fn mix, unsigned key) {
  __requires(mix == rotate_mix | mix == add_mix);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = mix(data[i], key + i);
}
