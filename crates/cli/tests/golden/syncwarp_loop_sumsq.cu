// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Sum of squares per block: a block loop halves the live values down to 64
// with __syncthreads() between rounds, then the first warp finishes in a
// loop of its own with __syncwarp() between reading a partner's value and
// overwriting its own. The two threads of one warp run the tail loop
// together, so they meet at the same occurrence of each __syncwarp, which
// orders the reads before the writes.
__global__ void sum_squares(const float *x, float *partial, int n) {
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
            __syncwarp();
            acc[t] = mine;
            __syncwarp();
        }
        if (t == 0)
            partial[blockIdx.x] = acc[0];
    }
}
