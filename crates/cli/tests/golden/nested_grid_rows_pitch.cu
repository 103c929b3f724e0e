// expect: verified
// flags: --blockDim=32 --gridDim=16
// Clears the w used columns of each row of a pitched image (rows are
// `pitch` elements apart, w <= pitch): blocks stride over the rows, threads
// over the columns. A column below w is below the pitch, so two rows'
// columns never meet.
__global__ void clear_pitched(int *img, int h, int w, int pitch, int value) {
    if (w > pitch)
        return;
    for (int r = blockIdx.x; r < h; r += gridDim.x)
        for (int c = threadIdx.x; c < w; c += blockDim.x)
            img[r * pitch + c] = value + c;
}
