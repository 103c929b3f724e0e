// expect: errors
// flags: --blockDim=64 --gridDim=8
// As row_loop_reduce_normalise, but the output loop runs to c <= cols:
// each row's last thread writes the next row's first element, which
// another block writes too.
__global__ void normalise_rows_overlap(const float *x, float *y, int rows, int cols) {
    __shared__ float acc[64];
    unsigned t = threadIdx.x;
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        float s = 0.0f;
        for (int c = t; c < cols; c += blockDim.x)
            s += fabsf(x[(size_t)r * cols + c]);
        acc[t] = s;
        __syncthreads();
        for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
            if (t < k)
                acc[t] += acc[t + k];
            __syncthreads();
        }
        float inv = 1.0f / (acc[0] + 1e-12f);
        __syncthreads();
        for (int c = t; c <= cols; c += blockDim.x)
            y[(size_t)r * cols + c] = x[(size_t)r * cols + c] * inv;
    }
}
