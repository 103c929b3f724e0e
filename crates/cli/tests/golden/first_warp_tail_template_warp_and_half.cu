// expect: errors
// flags: --blockDim=256 --gridDim=1024
// A tree reduction with the block size as a template parameter: shared
// memory steps down to 64 values. One bug: the tail runs under `t < 48`,
// a warp and a half, so lane 16 of the second warp shuffles from lanes that
// do not execute the shuffle. Otherwise: the first warp (`t < 32`, whole
// warps only) adds the two halves and finishes with an xor-shuffle loop.
template <unsigned BS>
__global__ void reduce_tail(const int *in, int *out, int n) {
    __shared__ int s[BS];
    unsigned t = threadIdx.x, i = blockIdx.x * BS * 2 + t;
    int v = 0;
    if (i < n) v = in[i];
    if (i + BS < n) v += in[i + BS];
    s[t] = v;
    __syncthreads();
#pragma unroll
    for (unsigned k = BS / 2; k > 32; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 48) {
        int x = s[t] + s[t + 32];
        for (int o = 16; o > 0; o >>= 1)
            x += __shfl_xor_sync(0xffffffffu, x, o);
        if (t == 0) out[blockIdx.x] = x;
    }
}
template __global__ void reduce_tail<256>(const int *, int *, int);
