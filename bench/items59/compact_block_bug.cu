// Item 7, bug: the leader reads the block's count before the other threads
// have taken their slots (the barrier after the increments is missing).
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
    if (threadIdx.x == 0)
        base = atomicAdd(total, count);
    __syncthreads();
    if (keep)
        out[base + slot] = in[i];
}
