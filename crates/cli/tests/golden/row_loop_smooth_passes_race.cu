// expect: possible-errors
// flags: --blockDim=64 --gridDim=8
// As row_loop_smooth_passes, but each thread writes its value one place to
// the right in the output (t + 1): the last thread's value lands on the
// next row's first element, which the block that owns that row writes.
// A rule tried in session 17 (a loop that only clears a log keeps its
// contents) called this verified; the prover must keep reporting it.
__global__ void smooth_rows_shifted(const float *x, float *y, int rows) {
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
