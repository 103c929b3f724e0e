// Item 9: layer normalisation of a rows x cols matrix, one block per row:
// a block reduction for the mean, a second one for the variance, then the
// scaled and shifted output.
__global__ void layer_norm(const float *x, float *y, const float *g, const float *b, int rows, int cols) {
    __shared__ float acc[256];
    unsigned t = threadIdx.x;
    int r = blockIdx.x;
    if (r >= rows)
        return;
    const float *xr = x + (size_t)r * cols;
    float s = 0.0f;
    for (int c = t; c < cols; c += blockDim.x)
        s += xr[c];
    acc[t] = s;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k)
            acc[t] += acc[t + k];
        __syncthreads();
    }
    float mean = acc[0] / cols;
    __syncthreads();
    float q = 0.0f;
    for (int c = t; c < cols; c += blockDim.x) {
        float d = xr[c] - mean;
        q += d * d;
    }
    acc[t] = q;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k)
            acc[t] += acc[t + k];
        __syncthreads();
    }
    float rstd = rsqrtf(acc[0] / cols + 1e-5f);
    for (int c = t; c < cols; c += blockDim.x)
        y[(size_t)r * cols + c] = (xr[c] - mean) * rstd * g[c] + b[c];
}
