// scale_stride_f.cu vectorized: each iteration loads and stores a float2
// (elements 2i and 2i + 1), and the iteration of a last odd element
// handles it alone. Any launch.

__global__ void scale(float *out, const float *in, float a, float b, unsigned n) {
  unsigned pairs = n / 2 + n % 2;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < pairs; i += blockDim.x * gridDim.x) {
    if (2 * i + 1 < n) {
      float2 v = reinterpret_cast<const float2 *>(in)[i];
      v.x = a * v.x + b;
      v.y = a * v.y + b;
      reinterpret_cast<float2 *>(out)[i] = v;
    } else {
      out[2 * i] = a * in[2 * i] + b;
    }
  }
}
