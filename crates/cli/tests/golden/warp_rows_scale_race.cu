// expect: possible-errors
// flags: --blockDim=128 --gridDim=256
// As warp_rows_scale, but the loop that writes the scaled row runs to
// `c <= cols`: the lane that writes column `cols` of row r writes the first
// element of row r + 1, which another warp writes (the one-bug variant).
__global__ void scale_by_max_overrun(const float *x, float *y, int rows, int cols) {
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
        for (int c = lane; c <= cols; c += 32)
            y[r * cols + c] = x[r * cols + c] * inv;
    }
}
