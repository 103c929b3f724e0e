// Item 9: work-efficient (Blelloch) exclusive scan, each block scanning its
// own 512 elements in shared memory: an up-sweep builds partial sums in
// place, the root is cleared, and a down-sweep distributes them.
__global__ void block_scan(const int *in, int *out) {
    __shared__ int buf[512];
    unsigned t = threadIdx.x;
    unsigned base = blockIdx.x * 512;
    buf[t] = in[base + t];
    buf[t + 256] = in[base + t + 256];
    unsigned stride = 1;
    for (unsigned active = 256; active > 0; active >>= 1) {
        __syncthreads();
        if (t < active) {
            unsigned hi = stride * (2 * t + 2) - 1;
            buf[hi] += buf[hi - stride];
        }
        stride <<= 1;
    }
    if (t == 0)
        buf[511] = 0;
    for (unsigned active = 1; active < 512; active <<= 1) {
        stride >>= 1;
        __syncthreads();
        if (t < active) {
            unsigned hi = stride * (2 * t + 2) - 1;
            int left = buf[hi - stride];
            buf[hi - stride] = buf[hi];
            buf[hi] += left;
        }
    }
    __syncthreads();
    out[base + t] = buf[t];
    out[base + t + 256] = buf[t + 256];
}
