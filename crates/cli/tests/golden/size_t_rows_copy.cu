// expect: verified
// flags: --blockDim=32 --gridDim=16
// Copies the top-left rows x cols corner of a matrix with `ld` columns into
// a packed one, blocks striding over rows; both offsets are size_t
// products of two ints.
__global__ void pack_corner(const float *a, float *b, int rows, int cols, int ld) {
    if (cols > ld)
        return;
    for (int r = blockIdx.x; r < rows; r += gridDim.x)
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            b[(size_t)r * cols + c] = a[(size_t)r * ld + c];
}
