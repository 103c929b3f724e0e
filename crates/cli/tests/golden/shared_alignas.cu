// expect: unknown
// flags: --blockDim=64 --gridDim=2
// `__shared__ alignas(16) float tile[...]`, as CUDA's samples declare
// vector-aligned tiles: nvcc accepts it, but clang allows no `alignas` after
// the memory-space attribute, so the file is unsupported (not invalid).
__global__ void copy_tile(float *out, const float *in) {
  __shared__ alignas(16) float tile[64];
  tile[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];
}
