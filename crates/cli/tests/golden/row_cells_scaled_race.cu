// expect: errors
// flags: --blockDim=128 --gridDim=64
// The defective variant of row_cells_scaled.cu: the column loop runs one
// element past the row (`c <= cols`), so a block's last write is the next
// row's first element, which another block writes. The row-cell lemma
// needs `c < cols` and must not hide the race.
__global__ void scale_rows(const float *a, float *o, int rows, int cols, float k) {
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        const float *ar = a + (size_t)r * cols;
        float *orow = o + (size_t)r * cols;
        for (int c = threadIdx.x; c <= cols; c += blockDim.x)
            orow[c] = k * ar[c];
    }
}
