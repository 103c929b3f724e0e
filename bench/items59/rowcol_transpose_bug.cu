// Item 5, bug: the row bound is inclusive, so row m of column c lands on
// row 0 of column c + 1, which another block writes.
__global__ void transpose_rows(const float *in, float *out, int m, int n) {
    for (int row = blockIdx.x; row <= m; row += gridDim.x)
        for (int col = threadIdx.x; col < n; col += blockDim.x)
            out[col * m + row] = in[row * n + col];
}
