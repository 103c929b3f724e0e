// Item 9: CSR sparse matrix times vector with one warp per row (warps
// stride over the rows): lanes stride over the row's nonzeros, a shuffle
// reduction combines them and lane 0 stores the row's result.
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
        if (lane == 0)
            y[r] = acc;
    }
}
