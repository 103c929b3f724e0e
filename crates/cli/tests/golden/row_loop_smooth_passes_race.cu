// expect: errors
// flags: --blockDim=64 --gridDim=8
// As row_loop_smooth_passes, but rows of the output are 63 elements apart
// while each block writes 64 of them (`y[r * 63 + t]`): the last thread's
// value lands on the next row's first element, which another block writes.
// (An earlier version wrote `y[r * 64 + t + 1]`, which is race-free: each
// (r, t) with t < 64 writes its own element. Session 17 reverted a rule for
// calling that version verified; the rule was right.)
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
        y[r * 63 + t] = a[t];
        __syncthreads();
    }
}
