// A wrong vectorized version: the fourth lane is left out once the
// element index reaches 64 (a difference only for a large n).

__global__ void scale(float *out, const float *in, float k, unsigned n) {
  __requires(n % 4 == 0);
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * t < n) {
    float4 v = reinterpret_cast<const float4 *>(in)[t];
    v.x *= k;
    v.y *= k;
    v.z *= k;
    if (4 * t < 64)
      v.w *= k;
    reinterpret_cast<float4 *>(out)[t] = v;
  }
}
