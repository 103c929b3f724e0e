// Item 8, bug: the result is read from buf[0] with no barrier before the
// next reduction overwrites it.
template <typename Op>
__device__ float block_reduce(float *buf, float v, Op op) {
    unsigned t = threadIdx.x;
    buf[t] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            buf[t] = op(buf[t], buf[t + s]);
        __syncthreads();
    }
    return buf[0];
}

__global__ void row_range(const float *in, float *lo, float *hi, int n) {
    __shared__ float buf[256];
    float v = in[blockIdx.x * 256 + threadIdx.x];
    float mx = block_reduce(buf, v, [] __device__ (float a, float b) { return fmaxf(a, b); });
    float mn = block_reduce(buf, v, [] __device__ (float a, float b) { return fminf(a, b); });
    if (threadIdx.x == 0) {
        hi[blockIdx.x] = mx;
        lo[blockIdx.x] = mn;
    }
}
