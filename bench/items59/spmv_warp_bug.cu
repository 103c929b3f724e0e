// Item 9, bug: the result is stored by lane 1 as well, whose shuffle
// reduction gives it the same sum: two lanes write y[r].
__global__ void csr_spmv(const int *ptr, const int *idx, const float *val, const float *x, float *y, int rows) {
    int lane = threadIdx.x % 32;
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int warps = gridDim.x * blockDim.x / 32;
    for (int r = warp; r < rows; r += warps) {
        float acc = 0.0f;
        for (int k = ptr[r] + lane; k < ptr[r + 1]; k += 32)
            acc += val[k] * x[idx[k]];
        for (int d = 16; d > 0; d >>= 1)
            acc += __shfl_xor_sync(0xffffffffu, acc, d);
        if (lane <= 1)
            y[r] = acc;
    }
}
