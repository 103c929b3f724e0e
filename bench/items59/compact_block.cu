// Item 7: two-level stream compaction: threads take block-local slots from
// a shared counter, the block's leader reserves the block's range in the
// global output with one atomicAdd, and each thread writes base + slot.
__global__ void compact_positive(const float *in, float *out, unsigned *total, int n) {
    __shared__ unsigned count;
    __shared__ unsigned base;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    bool keep = i < n && in[i] > 0.0f;
    unsigned slot = 0;
    if (keep)
        slot = atomicAdd(&count, 1u);
    __syncthreads();
    if (threadIdx.x == 0)
        base = atomicAdd(total, count);
    __syncthreads();
    if (keep)
        out[base + slot] = in[i];
}
