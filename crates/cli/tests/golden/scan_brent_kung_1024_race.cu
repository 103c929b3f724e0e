// expect: errors
// flags: --blockDim=512 --gridDim=64
// Issue #16 item 9, one bug: the textbook scan of scan_brent_kung_1024.cu
// with the down-sweep's barrier after the loop instead of in it, so a
// round's swap races with the next round's reads of the same pair.
#define N 1024
__global__ void prescan(const float *g_in, float *g_out) {
    __shared__ float temp[N];
    int thid = threadIdx.x;
    int base = blockIdx.x * N;
    temp[2 * thid] = g_in[base + 2 * thid];
    temp[2 * thid + 1] = g_in[base + 2 * thid + 1];
    int offset = 1;
    for (int d = N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0)
        temp[N - 1] = 0;
    for (int d = 1; d < N; d *= 2) {
        offset >>= 1;
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            float t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    g_out[base + 2 * thid] = temp[2 * thid];
    g_out[base + 2 * thid + 1] = temp[2 * thid + 1];
}
