// expect: unknown
// flags: --blockDim=128 --gridDim=8
// One kernel reaches inline PTX that lockstep does not model (a plain
// write-through store); only that kernel is unknown, and the other kernel
// of the file is still checked.
__device__ void write_through(unsigned *flag, unsigned v) {
  asm volatile("st.global.wt.u32 [%0], %1;" ::"l"(flag), "r"(v) : "memory");
}

__global__ void publish(unsigned *flag, float *data) {
  data[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
  if (threadIdx.x == 0) {
    write_through(&flag[blockIdx.x], 1u);
  }
}

__global__ void scale(float *v, float s) {
  v[blockIdx.x * blockDim.x + threadIdx.x] *= s;
}
