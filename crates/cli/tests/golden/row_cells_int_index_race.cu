// expect: errors
// flags: --blockDim=64 --gridDim=32
// The defective variant of row_cells_int_index.cu: the row length of the
// output is `m - 1` while `r` goes up to `m - 1`, so the last row of one
// column is the first row of the next column, which another block writes.
__global__ void transpose_cols(const float *in, float *out, int m, int n) {
    for (int c = blockIdx.x; c < n; c += gridDim.x)
        for (int r = threadIdx.x; r < m; r += blockDim.x)
            out[c * (m - 1) + r] = in[r * n + c];
}
