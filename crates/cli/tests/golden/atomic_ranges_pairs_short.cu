// expect: errors
// flags: --blockDim=128 --gridDim=64
// Issue #16 item 7, one bug: the staging of atomic_ranges_pairs.cu
// reserves one slot when a thread keeps any value, but a thread that keeps
// two writes `slot + 1` too, the next thread's slot.
__global__ void stage_pairs(const int *a, const int *b, int *out) {
    __shared__ unsigned fill;
    __shared__ int stage[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        fill = 0;
    __syncthreads();
    int x = a[i], y = b[i];
    unsigned count = (x > 0) + (y > 0);
    unsigned slot = atomicAdd(&fill, count > 0 ? 1u : 0u);
    if (count == 2) {
        stage[slot] = x;
        stage[slot + 1] = y;
    } else if (count == 1) {
        stage[slot] = x > 0 ? x : y;
    }
    __syncthreads();
    if (threadIdx.x < fill)
        out[blockIdx.x * 256 + threadIdx.x] = stage[threadIdx.x];
}
