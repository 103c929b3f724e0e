// expect: possible-errors
// flags: --blockDim=256 --gridDim=1024
// As guarded_col_band_rows, but the column bound inside the loop body lets
// c == n through (`c <= n`): that thread writes the first element of the
// next row, which thread 0 writes in the next round (the one-bug variant).
__global__ void band_rows_overrun(const float *in, float *out, int m, int n) {
    int c = threadIdx.x + blockIdx.y * blockDim.x;
    for (int k = 0; k < 4; ++k) {
        int r = blockIdx.x * 4 + k;
        if (r < m && c <= n) {
            float left = c > 0 ? in[r * n + c - 1] : 0.0f;
            out[r * n + c] = 0.5f * (left + in[r * n + c]);
        }
    }
}
