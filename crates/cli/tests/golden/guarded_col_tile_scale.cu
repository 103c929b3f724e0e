// expect: verified
// flags: --blockDim=[32,8] --gridDim=[16,16]
// A 32 x 32 tile scaled by 32 x 8 threads: each thread visits the rows
// r, r + 8, r + 16, r + 24 of its tile column, writing `out[row * n + col]`
// under the column guard `col < n`. The guard is over values constant for
// the row loop, so no loop condition states it; a logged write of an
// earlier row must keep it (its guards, over the log's ghosts) to stay in
// its row.
__global__ void scale_tiles(const float *in, float *out, int m, int n, float a) {
    int col = blockIdx.x * 32 + threadIdx.x;
    int row0 = blockIdx.y * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += 8) {
        int row = row0 + k;
        if (col < n && row < m)
            out[row * n + col] = a * in[row * n + col];
    }
}
