// expect: possible-errors
// flags: --blockDim=256 --gridDim=1024
// As warp_rows_norms, but lane 0 stores at norms[r / 2]: the warps of rows
// 2k and 2k + 1 write the same element (the one-bug variant).
__global__ void row_norms_halved(const float *a, float *norms, int rows, int cols, int pitch) {
    int lane = threadIdx.x % 32;
    int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int nw = gridDim.x * blockDim.x / 32;
    for (int r = w; r < rows; r += nw) {
        float s = 0.0f;
        for (int c = lane; c < cols; c += 32) {
            float v = a[r * pitch + c];
            s += v * v;
        }
        for (int off = 16; off >= 1; off /= 2)
            s += __shfl_down_sync(0xffffffffu, s, off);
        if (lane == 0)
            norms[r / 2] = sqrtf(s);
    }
}
