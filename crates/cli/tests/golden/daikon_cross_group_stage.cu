// expect: verified
// flags: --blockDim=128 --gridDim=64
// A grid-stride loop that stages each block's slice of `src` in shared
// memory between two barriers and writes it scaled to `dst`. The Daikon
// filter's runs see a block's writes of `dst` from an earlier iteration
// still in its log for a thread of another block (a block barrier orders
// nothing across blocks), so the candidates saying the log holds no write
// are dropped before any solver query; the kernel is still verified.
__global__ void stage_scale(const int *src, int *dst, int n, int k) {
    __shared__ int buf[128];
    for (int base = blockIdx.x * 128; base < n; base += gridDim.x * 128) {
        int i = base + threadIdx.x;
        buf[threadIdx.x] = i < n ? src[i] : 0;
        __syncthreads();
        if (i < n)
            dst[i] = k * buf[threadIdx.x];
        __syncthreads();
    }
}
