// Item 9, bug: the root is cleared before the up-sweep's last round has
// passed a barrier, racing with thread 0's last up-sweep write.
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
    if (t == 1)
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
