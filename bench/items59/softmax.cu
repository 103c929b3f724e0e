// Item 9: row softmax, one block per row (grid-stride over rows): a
// max-reduction and a sum-reduction in shared memory, then the output.
__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
    __shared__ float red[256];
    unsigned t = threadIdx.x;
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        const float *xr = x + (size_t)r * cols;
        float *yr = y + (size_t)r * cols;
        float m = -1e30f;
        for (int c = t; c < cols; c += blockDim.x)
            m = fmaxf(m, xr[c]);
        red[t] = m;
        __syncthreads();
        for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
            if (t < s)
                red[t] = fmaxf(red[t], red[t + s]);
            __syncthreads();
        }
        float rowmax = red[0];
        __syncthreads();
        float sum = 0.0f;
        for (int c = t; c < cols; c += blockDim.x)
            sum += __expf(xr[c] - rowmax);
        red[t] = sum;
        __syncthreads();
        for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
            if (t < s)
                red[t] += red[t + s];
            __syncthreads();
        }
        float inv = 1.0f / red[0];
        __syncthreads();
        for (int c = t; c < cols; c += blockDim.x)
            yr[c] = __expf(xr[c] - rowmax) * inv;
    }
}
