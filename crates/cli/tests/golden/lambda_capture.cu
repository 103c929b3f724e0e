// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Device lambdas: `scale` hands a lambda that captures two pointers by
// value to a helper that calls it for the thread's element; `tile` stages
// its block's inputs in shared memory through a lambda that captures by
// reference and only reads global memory. The captures are a private struct
// the kernel fills and the lambda reads, so a captured pointer is the
// kernel's argument, not a pointer that could reach `tile`'s shared array.

template <typename F>
__device__ void for_each_elem(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

__global__ void scale(float *out, const float *in, int n, float s) {
  for_each_elem(n, [=] __device__ (int i) {
    out[i] = s * in[i] + 1.0f;
  });
}

__global__ void tile(float *out, const float *in) {
  __shared__ float t[256];
  auto load = [&](int k) { return in[blockIdx.x * blockDim.x + k]; };
  t[threadIdx.x] = load(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = t[255 - threadIdx.x] + 1.0f;
}
