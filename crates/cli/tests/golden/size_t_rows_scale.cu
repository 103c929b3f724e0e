// expect: verified
// flags: --blockDim=64 --gridDim=8
// One block per row of a rows x cols matrix, its threads over the columns;
// the row's start is computed in size_t, `(size_t)r * cols`, a product
// the compiler does not promise anything about. Two ints' product fits 64
// bits, and with 0 <= c < cols the element (row, c) stays in its row even
// after scaling by the element size.
__global__ void scale_rows(float *m, const float *s, int rows, int cols) {
    int r = blockIdx.x;
    if (r >= rows)
        return;
    float *row = m + (size_t)r * cols;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        row[c] *= s[r];
}
