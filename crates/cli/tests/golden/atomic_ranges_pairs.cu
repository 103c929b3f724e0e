// expect: verified
// flags: --blockDim=128 --gridDim=64
// Issue #16 item 7, reservations of variable size without a loop: a
// thread keeps one or two values and reserves exactly that many slots in
// a shared staging buffer, then writes them (`slot` and, for two,
// `slot + 1`). Two threads' ranges [slot, slot + count) from one
// atomicAdd on the block's counter are disjoint.
__global__ void stage_pairs(const int *a, const int *b, int *out) {
    __shared__ unsigned fill;
    __shared__ int stage[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        fill = 0;
    __syncthreads();
    int x = a[i], y = b[i];
    unsigned count = (x > 0) + (y > 0);
    unsigned slot = atomicAdd(&fill, count);
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
