// expect: errors
// flags: --blockDim=256 --gridDim=1024
// The block sum of `warp_zero_sums_partials.cu` with one bug: the second
// shuffle loop runs under `lane < 16`, half a warp, so lane 0 shuffles from
// lane 16, which does not execute the shuffle (and every warp's lane 0
// writes the block's result).
__global__ void block_sum_shfl(const float *in, float *out, int n) {
    __shared__ float partial[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
    float v = i < n ? in[i] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
        partial[wid] = v;
    __syncthreads();
    if (lane < 16) {
        v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}
