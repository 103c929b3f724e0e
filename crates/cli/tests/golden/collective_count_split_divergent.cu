// expect: possible-errors
// flags: --blockDim=256 --gridDim=1024
// As collective_count_split.cu, but the branch tests the thread's own element
// instead of the block's count: the barrier inside is reached by only the
// threads whose element is negative.
__global__ void split_block(const float *in, float *staged, int *negatives) {
    __shared__ float tile[256];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    float v = in[i];
    int n = __syncthreads_count(v < 0.0f);
    if (v < 0.0f) {
        tile[t] = v < 0.0f ? -v : v;
        __syncthreads();
        staged[i] = tile[(t + 1) % blockDim.x];
    } else {
        staged[i] = v;
    }
    if (t == 0) negatives[blockIdx.x] = n;
}
