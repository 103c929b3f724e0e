// expect: errors
// flags: --blockDim=128 --gridDim=512
// As cleared_log_scan_rows, but the row's total is also stored one place
// past the row (`out[r * 128 + 128]`) before the doubling loop: that is the
// first element of row r + 1, which another block writes after its own
// doubling loop. The write must stay in the log across the barrier loop.
__global__ void scan_rows_total(const int *in, int *out, int rows) {
    __shared__ int buf[128];
    unsigned t = threadIdx.x;
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        buf[t] = in[r * 128 + t];
        if (t == 0)
            out[r * 128 + 128] = 0;
        __syncthreads();
        for (unsigned d = 1; d < 128; d *= 2) {
            int v = t >= d ? buf[t - d] : 0;
            __syncthreads();
            buf[t] += v;
            __syncthreads();
        }
        out[r * 128 + t] = buf[t];
        __syncthreads();
    }
}
