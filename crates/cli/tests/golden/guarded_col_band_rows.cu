// expect: verified
// flags: --blockDim=256 --gridDim=1024
// A row band per block: block b smooths rows 4b .. 4b + 3 of an m x n
// matrix, the threads striding over the columns of each row with the
// bound checked inside the loop body (`if (c < n)`), not in the column
// loop's condition. A logged write of an earlier row keeps its guards.
__global__ void band_rows(const float *in, float *out, int m, int n) {
    int c = threadIdx.x + blockIdx.y * blockDim.x;
    for (int k = 0; k < 4; ++k) {
        int r = blockIdx.x * 4 + k;
        if (r < m && c < n) {
            float left = c > 0 ? in[r * n + c - 1] : 0.0f;
            out[r * n + c] = 0.5f * (left + in[r * n + c]);
        }
    }
}
