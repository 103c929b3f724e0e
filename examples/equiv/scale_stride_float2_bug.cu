// scale_stride_float2.cu with one bug: the vector's lanes are stored
// swapped.

__global__ void scale(float *out, const float *in, float a, float b, unsigned n) {
  unsigned pairs = n / 2 + n % 2;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < pairs; i += blockDim.x * gridDim.x) {
    if (2 * i + 1 < n) {
      float2 v = reinterpret_cast<const float2 *>(in)[i];
      float2 w;
      w.x = a * v.y + b;
      w.y = a * v.x + b;
      reinterpret_cast<float2 *>(out)[i] = w;
    } else {
      out[2 * i] = a * in[2 * i] + b;
    }
  }
}
