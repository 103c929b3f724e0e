// expect: rejected
// flags: --blockDim=32 --gridDim=1
// A function defined twice is rejected for every GPU architecture: the
// error is reported once, without compiling the file again for a newer GPU
// (only errors another architecture may not give ask for that).
__device__ int clamp_index(int i, int n) { return i < n ? i : n - 1; }
__device__ int clamp_index(int i, int n) { return i < 0 ? 0 : i; }

__global__ void gather(int *out, const int *in, int n) {
  out[threadIdx.x] = in[clamp_index(threadIdx.x, n)];
}
