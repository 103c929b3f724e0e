// expect: errors
// flags: --blockDim=[16,16] --gridDim=[32,32]
// A 2-D kernel guards its rows but not its columns: where the grid is wider
// than the matrix (512 columns of threads, `n` of them in the matrix), a
// thread past the last column writes the first elements of the next row,
// which that row's own thread writes too. The witness's element lies far
// past the replay's default buffer of unknown size, so the confirming
// replay runs again with a buffer that reaches it.
__global__ void fill_rows(float *c, int m, int n) {
    int row = blockIdx.y * 16 + threadIdx.y;
    int col = blockIdx.x * 16 + threadIdx.x;
    if (row < m)
        c[row * n + col] = row;
}
