// expect: errors
// flags: --blockDim=[32,8] --gridDim=[16,16]
// As guarded_col_tile_scale, but the column guard lets col == n through:
// that thread writes the first element of the next row, which another
// thread writes (the one-bug variant).
__global__ void scale_tiles_overrun(const float *in, float *out, int m, int n, float a) {
    int col = blockIdx.x * 32 + threadIdx.x;
    int row0 = blockIdx.y * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += 8) {
        int row = row0 + k;
        if (col <= n && row < m)
            out[row * n + col] = a * in[row * n + col];
    }
}
