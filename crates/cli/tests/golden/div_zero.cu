// expect: errors
// flags: --blockDim=8 --gridDim=1
// Thread 3 divides by zero.

__global__ void ratio(int *out) {
  int d = (int)threadIdx.x - 3;
  out[threadIdx.x] = 100 / d;
}
