// Item 6, bug: the tail has no __syncwarp() between a lane's write and
// its partner's read in the next round.
__global__ void block_max(const float *in, float *out, int n) {
    __shared__ float m[256];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * 256 + t;
    m[t] = i < n ? in[i] : -1e30f;
    __syncthreads();
    for (unsigned s = 128; s >= 64; s >>= 1) {
        if (t < s)
            m[t] = fmaxf(m[t], m[t + s]);
        __syncthreads();
    }
    if (t < 32) {
        for (unsigned s = 32; s > 0; s >>= 1) {
            float v = fmaxf(m[t], m[t + s]);
            __syncwarp();
            m[t] = v;
        }
        if (t == 0)
            out[blockIdx.x] = m[0];
    }
}
