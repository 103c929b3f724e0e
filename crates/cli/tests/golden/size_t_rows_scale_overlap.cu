// expect: errors
// flags: --blockDim=64 --gridDim=8
// As size_t_rows_scale, but the column loop runs one element too far:
// the last thread's element is the next row's first, which the next
// block scales too.
__global__ void scale_rows_overlap(float *m, const float *s, int rows, int cols) {
    int r = blockIdx.x;
    if (r >= rows)
        return;
    float *row = m + (size_t)r * cols;
    for (int c = threadIdx.x; c <= cols; c += blockDim.x)
        row[c] *= s[r];
}
