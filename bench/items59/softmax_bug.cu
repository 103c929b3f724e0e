// Item 9, bug: the row maximum is read from red[0] with no barrier before
// the sum-reduction's first write overwrites it.
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
