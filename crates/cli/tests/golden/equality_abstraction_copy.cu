// expect: verified
// flags: --blockDim=64 --gridDim=1 --equality-abstraction
// Every thread copies buf[0] to out[0]. Under GPUVerify's equality
// abstraction the threads of a group read one value from buf[0] (no
// thread writes it in that barrier interval), so their writes of it to
// out[0] are a benign race. Without the flag the loaded values are
// adversarial and the copies may differ.

__global__ void broadcast(int *buf, int *out) {
  out[0] = buf[0];
  __syncthreads();
  buf[threadIdx.x + 1] = out[0];
}
