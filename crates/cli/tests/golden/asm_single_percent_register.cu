// expect: unknown
// flags: --blockDim=32 --gridDim=1
// nvcc passes `%globaltimer` through in an asm statement with operands;
// clang wants `%%globaltimer`. The file is `unknown` with the line, not
// rejected as invalid.
__device__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

__global__ void stamp(unsigned long long *out) { out[threadIdx.x] = now(); }
