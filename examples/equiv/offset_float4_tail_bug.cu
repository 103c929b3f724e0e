// The float4 affine map whose scalar tail stops one element early: the
// last element is left unwritten when n is not a multiple of four.

__global__ void affine(float *out, const float *in, float a, float b, unsigned n) {
  __requires(n <= blockDim.x * gridDim.x);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * t + 3 < n) {
    float4 v = reinterpret_cast<const float4 *>(in)[t];
    v.x = a * v.x + b;
    v.y = a * v.y + b;
    v.z = a * v.z + b;
    v.w = a * v.w + b;
    reinterpret_cast<float4 *>(out)[t] = v;
  } else {
    for (unsigned i = 4 * t; i + 1 < n; i++)
      out[i] = a * in[i] + b;
  }
}
