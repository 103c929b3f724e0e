// The affine map with float4 loads and stores: thread t handles elements
// 4t .. 4t + 3 with one vector access when all four are below n, and the
// thread holding the last, partial group of four finishes it with scalar
// accesses (the tail). The launch covers n / 4 rounded up threads.

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
    for (unsigned i = 4 * t; i < n; i++)
      out[i] = a * in[i] + b;
  }
}
