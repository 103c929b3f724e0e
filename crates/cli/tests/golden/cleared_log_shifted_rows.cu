// expect: verified
// flags: --blockDim=64 --gridDim=8
// Each thread writes its smoothed value one place to the right within a
// 64-element stride (`y[r * 64 + t + 1]`, t < 64): (r, t) writes element
// r * 64 + t + 1, its own, so blocks never meet although the last thread's
// element is the first of the next stride. The smoothing loop synchronises
// without touching `y`, so the write log of `y` from the previous row only
// loses entries in it. (This is the version of row_loop_smooth_passes_race
// that session 17 mistook for a race.)
__global__ void smooth_rows_right(const float *x, float *y, int rows) {
    __shared__ float a[64];
    unsigned t = threadIdx.x;
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        a[t] = x[r * 64 + t];
        __syncthreads();
        for (int pass = 0; pass < 4; ++pass) {
            float v = t > 0 ? 0.5f * (a[t] + a[t - 1]) : a[t];
            __syncthreads();
            a[t] = v;
            __syncthreads();
        }
        y[r * 64 + t + 1] = a[t];
        __syncthreads();
    }
}
