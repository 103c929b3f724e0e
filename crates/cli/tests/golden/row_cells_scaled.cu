// expect: verified
// flags: --blockDim=128 --gridDim=64
// Row-cell lemma (prove/src/encode/cells.rs), 64-bit shape: each block
// scales its rows (grid-stride), each thread its columns (block-stride),
// through row pointers `o + (size_t)r * cols`, so the byte offset is
// `mul(r, cols) * 4 + c * 4`. Two threads' cells are equal only for equal
// rows and columns; rows of different blocks and columns of different
// threads differ, so the writes are distinct.
__global__ void scale_rows(const float *a, float *o, int rows, int cols, float k) {
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        const float *ar = a + (size_t)r * cols;
        float *orow = o + (size_t)r * cols;
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            orow[c] = k * ar[c];
    }
}
