// expect: errors
// flags: --blockDim=256 --gridDim=1024
// As syncwarp_loop_sumsq, but without the __syncwarp() between reading the
// partner's value and overwriting its own: lane 0 reads acc[h] while lane h
// writes it (the one-bug variant).
__global__ void sum_squares_unsynced(const float *x, float *partial, int n) {
    __shared__ float acc[256];
    unsigned t = threadIdx.x;
    unsigned g = blockIdx.x * blockDim.x + t;
    float v = g < n ? x[g] : 0.0f;
    acc[t] = v * v;
    __syncthreads();
    for (unsigned h = blockDim.x / 2; h > 32; h /= 2) {
        if (t < h)
            acc[t] += acc[t + h];
        __syncthreads();
    }
    if (t < 32) {
        for (unsigned h = 32; h >= 1; h /= 2) {
            float mine = acc[t] + acc[t + h];
            acc[t] = mine;
            __syncwarp();
        }
        if (t == 0)
            partial[blockIdx.x] = acc[0];
    }
}
