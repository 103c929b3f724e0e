// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Each block counts how many of its elements are negative with
// __syncthreads_count; the whole block then takes the same branch: every
// thread stages its element, and the first thread writes the block's count.
__global__ void split_block(const float *in, float *staged, int *negatives) {
    __shared__ float tile[256];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    float v = in[i];
    int n = __syncthreads_count(v < 0.0f);
    if (n > 0) {
        tile[t] = v < 0.0f ? -v : v;
        __syncthreads();
        staged[i] = tile[(t + 1) % blockDim.x];
    } else {
        staged[i] = v;
    }
    if (t == 0) negatives[blockIdx.x] = n;
}
