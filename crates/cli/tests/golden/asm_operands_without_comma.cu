// expect: unknown
// flags: --blockDim=64 --gridDim=1
// An asm statement whose input operands have no comma between them, which
// nvcc's front end accepts and clang does not: `unknown` with the line,
// not rejected. (The race on `out[0]` is not reported: nothing is checked.)
__device__ void store_release(unsigned *p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%1], %0;" ::"r"(v) "l"(p) : "memory");
}

__global__ void publish(unsigned *out) {
  store_release(&out[threadIdx.x], threadIdx.x);
  out[0] = threadIdx.x;
}
