// expect: verified
// flags: --blockDim=256 --gridDim=1024
// A block sum in the modern shape: every warp reduces its values with a
// shuffle loop, lane 0 of each warp stores the warp's partial, and after
// the barrier warp 0 alone runs a second shuffle loop over the partials.
// The second loop is entered by whole warps only (`wid == 0` is the same
// for the lanes of a warp), so every lane a shuffle reads executes it too:
// the prover needs "the lanes of one warp are in the loop together", which
// holds although the threads of a group are not.
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
    if (wid == 0) {
        v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}
