// expect: errors
// flags: --blockDim=32 --gridDim=8
// daikon_tile_loop.cu with one bug: no barrier before the next tile
// overwrites the one other threads are still reading.
#define T 32
__global__ void tile_loop(const float *in, float *out, int n) {
    __shared__ float tile[T + 2];
    for (int base = blockIdx.x * T; base < n; base += gridDim.x * T) {
        int i = base + threadIdx.x;
        tile[threadIdx.x + 1] = i < n ? in[i] : 0.0f;
        if (threadIdx.x == 0)
            tile[0] = base > 0 ? in[base - 1] : 0.0f;
        if (threadIdx.x == T - 1)
            tile[T + 1] = base + T < n ? in[base + T] : 0.0f;
        __syncthreads();
        if (i < n)
            out[i] = (tile[threadIdx.x] + tile[threadIdx.x + 1] + tile[threadIdx.x + 2]) / 3.0f;
    }
}
