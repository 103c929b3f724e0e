// expect: errors
// flags: --blockDim=64 --gridDim=8
// As nested_grid_rows_axpy, but the column loop runs one past the row
// (`c <= w`): the last column of row r is the first of row r + 1, which
// another block updates.
__global__ void rows_axpy_overrun(float a, const float *x, float *y, int h, int w) {
    for (int r = blockIdx.x; r < h; r += gridDim.x) {
        for (int c = threadIdx.x; c <= w; c += blockDim.x) {
            y[r * w + c] = a * x[r * w + c] + y[r * w + c];
        }
    }
}
