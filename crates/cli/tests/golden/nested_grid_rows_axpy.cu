// expect: verified
// flags: --blockDim=64 --gridDim=8
// y = a * x + y over an h x w matrix: blocks take rows in turn (a
// grid-stride loop), the threads of a block take the row's columns in turn
// (a block-stride loop inside it). Each element is read and written by the
// one thread that owns its (row, column); an access logged in an earlier
// row stays in that row because its column was below w and its row below h.
__global__ void rows_axpy(float a, const float *x, float *y, int h, int w) {
    for (int r = blockIdx.x; r < h; r += gridDim.x) {
        for (int c = threadIdx.x; c < w; c += blockDim.x) {
            y[r * w + c] = a * x[r * w + c] + y[r * w + c];
        }
    }
}
