// Item 6, bug: the tail starts without waiting for the block loop's last
// round: the loop stops one round early and its __syncthreads() with it, so
// thread 16's round-32 write of s[16] races with thread 0's tail read.
__global__ void grid_sum(const float *in, float *partial, int n) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
        acc += in[i];
    s[t] = acc;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k >= 64; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 32)
        s[t] += s[t + 32];
    if (t < 16) {
        float v = s[t] + s[t + 16];
        __syncwarp(0xffff);
        s[t] = v;
        __syncwarp(0xffff);
        if (t < 8) v = s[t] + s[t + 8];
        __syncwarp(0xffff);
        if (t < 8) s[t] = v;
        __syncwarp(0xffff);
        if (t < 4) v = s[t] + s[t + 4];
        __syncwarp(0xffff);
        if (t < 4) s[t] = v;
        __syncwarp(0xffff);
        if (t == 0)
            partial[blockIdx.x] = s[0] + s[1] + s[2] + s[3];
    }
}
