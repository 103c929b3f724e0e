// expect: verified
// flags: --blockDim=[16,16] --gridDim=[32,32]
// The correct variant of rowmajor_unguarded_column_race.cu: rows and
// columns guarded, each element written by one thread.
__global__ void fill_rows(float *c, int m, int n) {
    int row = blockIdx.y * 16 + threadIdx.y;
    int col = blockIdx.x * 16 + threadIdx.x;
    if (row < m && col < n)
        c[row * n + col] = row;
}
