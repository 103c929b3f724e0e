// expect: verified
// flags: --blockDim=128 --gridDim=256
// Each row scaled by its largest magnitude, one warp per row (the warps
// stride over the rows): an xor-shuffle loop gives every lane the row's
// maximum, then the lanes write the scaled row. The row's writes of the
// previous round stay in the log across the next round's shuffle loop.
__global__ void scale_by_max(const float *x, float *y, int rows, int cols) {
    int lane = threadIdx.x & 31;
    int w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int nw = gridDim.x * (blockDim.x / 32);
    for (int r = w; r < rows; r += nw) {
        float m = 0.0f;
        for (int c = lane; c < cols; c += 32)
            m = fmaxf(m, fabsf(x[r * cols + c]));
        for (int mask = 16; mask > 0; mask >>= 1)
            m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, mask));
        float inv = m > 0.0f ? 1.0f / m : 0.0f;
        for (int c = lane; c < cols; c += 32)
            y[r * cols + c] = x[r * cols + c] * inv;
    }
}
