// Item 5: an out-of-place transpose of an m x n matrix with both sizes
// known only at run time; element (row, col) goes to out[col * m + row].
__global__ void transpose_rows(const float *in, float *out, int m, int n) {
    for (int row = blockIdx.x; row < m; row += gridDim.x)
        for (int col = threadIdx.x; col < n; col += blockDim.x)
            out[col * m + row] = in[row * n + col];
}
