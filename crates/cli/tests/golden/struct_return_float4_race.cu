// expect: errors
// flags: --blockDim=128 --gridDim=4
// As struct_ok, but each thread also writes a lane of its neighbour's
// element.
__device__ float4 load4(const float4 *p, unsigned i) { return p[i]; }
__device__ float4 scale4(float4 v, float k) { return make_float4(k * v.x, k * v.y, k * v.z, k * v.w); }
__global__ void scale(const float4 *in, float4 *out, float k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = scale4(load4(in, i), k);
  out[i + 1].w = (float)i;
}
