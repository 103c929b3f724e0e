// expect: verified
// flags: --blockDim=64 --gridDim=16
// Mean-centring of each row, one block per row (grid-stride over rows): a
// tree sum in shared memory whose loop synchronises but never touches the
// output, then each thread writes its columns of the row. The write log of
// `out` from the previous row must survive the barrier loop unchanged (a
// loop that only clears a log keeps its contents), or the row loop forgets
// where the other block's earlier write went.
__global__ void center_rows(const float *in, float *out, int rows, int cols) {
    __shared__ float acc[64];
    unsigned t = threadIdx.x;
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        float s = 0.0f;
        for (int c = t; c < cols; c += blockDim.x)
            s += in[r * cols + c];
        acc[t] = s;
        __syncthreads();
        for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
            if (t < h)
                acc[t] += acc[t + h];
            __syncthreads();
        }
        float mean = acc[0] / cols;
        __syncthreads();
        for (int c = t; c < cols; c += blockDim.x)
            out[r * cols + c] = in[r * cols + c] - mean;
    }
}
