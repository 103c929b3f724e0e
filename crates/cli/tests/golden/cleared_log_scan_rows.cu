// expect: verified
// flags: --blockDim=128 --gridDim=512
// Inclusive prefix sums of 128-element rows, one block per row (grid-stride
// over rows), by Hillis-Steele doubling in shared memory: the doubling loop
// has two barriers per step and no access of `out`, so the write log of
// `out` carried around the row loop only loses entries in it (a loop that
// only clears a log keeps its contents).
__global__ void scan_rows(const int *in, int *out, int rows) {
    __shared__ int buf[128];
    unsigned t = threadIdx.x;
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        buf[t] = in[r * 128 + t];
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
