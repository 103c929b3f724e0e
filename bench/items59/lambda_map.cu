// Item 8: device lambdas. A generic grid-stride map applies a lambda that
// captures a coefficient and a read-only table by value; a second kernel
// stages a tile in shared memory through a lambda that only reads global
// memory, then reverses it.
template <typename F>
__device__ void grid_map(int n, float *out, F f) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = f(i);
}

__global__ void poly(float *out, const float *x, const float *coef, int n) {
    grid_map(n, out, [=] __device__ (int i) {
        float v = x[i];
        return (coef[2] * v + coef[1]) * v + coef[0];
    });
}

__global__ void reverse_tiles(float *out, const float *in) {
    __shared__ float tile[256];
    auto fetch = [&](int k) { return in[blockIdx.x * 256 + k] * 2.0f; };
    tile[threadIdx.x] = fetch(threadIdx.x);
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}
