// expect: errors
// flags: --blockDim=64 --gridDim=16
// As cleared_log_center_rows, but the output loop runs one column too far
// (`c <= cols`): the thread that writes column `cols` of row r writes the
// first element of row r + 1, which another block writes.
__global__ void center_rows_overrun(const float *in, float *out, int rows, int cols) {
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
        for (int c = t; c <= cols; c += blockDim.x)
            out[r * cols + c] = in[r * cols + c] - mean;
    }
}
