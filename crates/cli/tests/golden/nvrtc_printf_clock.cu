// expect: verified
// flags: --blockDim=64 --gridDim=2
// NVRTC style again: printf() and clock() come from nvcc's implicit
// <stdio.h> and <time.h>, assert() from <assert.h>; none is included here.
// Each thread writes its own slot.
__device__ unsigned checked_half(unsigned v) {
  assert(v / 2u <= v);
  return v / 2u;
}

extern "C" __global__ void halves(unsigned *out, long long *stamps) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  long long start = clock64();
  out[i] = checked_half(i);
  stamps[i] = clock64() - start;
  if (i == 0)
    printf("first half: %u\n", out[0]);
}
