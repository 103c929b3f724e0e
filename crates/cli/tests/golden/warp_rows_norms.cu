// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Euclidean norm of each row of a pitched matrix, one warp per row (the
// warps stride over the rows): the lanes stride over the row's columns, a
// shuffle-down tree adds their partial sums, and lane 0 stores the row's
// norm. The shuffle loop touches no memory, so the log of the previous
// row's store survives it, and two lanes of one warp are in it together.
__global__ void row_norms(const float *a, float *norms, int rows, int cols, int pitch) {
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
            norms[r] = sqrtf(s);
    }
}
