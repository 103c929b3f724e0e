// expect: errors
// flags: --blockDim=256 --gridDim=1024
// As lambda_capture.cu, but the lambda writes its neighbour's element,
// which the neighbour reads: the race is reported at the lambda's body, the
// line of the accesses, and `tile` reads its shared array before the
// barrier that orders the other threads' writes.

template <typename F>
__device__ void for_each_elem(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    f(i);
}

__global__ void shift(float *out, int n, float s) {
  for_each_elem(n, [=] __device__ (int i) {
    out[i + 1] = s * out[i];
  });
}

__global__ void tile(float *out, const float *in) {
  __shared__ float t[256];
  auto load = [&](int k) { return in[blockIdx.x * blockDim.x + k]; };
  t[threadIdx.x] = load(threadIdx.x);
  out[blockIdx.x * blockDim.x + threadIdx.x] = t[255 - threadIdx.x] + 1.0f;
  __syncthreads();
}
