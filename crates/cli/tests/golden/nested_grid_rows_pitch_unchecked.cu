// expect: errors
// flags: --blockDim=32 --gridDim=16
// As nested_grid_rows_pitch without the check that w fits the pitch: with
// w > pitch, a row's last columns are the next row's first ones, written
// by another block.
__global__ void clear_pitched_unchecked(int *img, int h, int w, int pitch, int value) {
    for (int r = blockIdx.x; r < h; r += gridDim.x)
        for (int c = threadIdx.x; c < w; c += blockDim.x)
            img[r * pitch + c] = value + c;
}
