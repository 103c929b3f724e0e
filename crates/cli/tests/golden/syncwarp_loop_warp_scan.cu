// expect: verified
// flags: --blockDim=128 --gridDim=64
// Each warp scans its own 32 values of a shared buffer (inclusive prefix
// sums by doubling), with __syncwarp() between reading a lower lane's value
// and adding to its own; no block barrier is needed, since a lane only
// reads lanes of its own warp (`lane >= d` keeps `t - d` in the warp).
__global__ void warp_scans(const int *in, int *out) {
    __shared__ int buf[128];
    unsigned t = threadIdx.x;
    unsigned lane = t % 32;
    buf[t] = in[blockIdx.x * 128 + t];
    __syncwarp();
    for (unsigned d = 1; d < 32; d *= 2) {
        int add = 0;
        if (lane >= d)
            add = buf[t - d];
        __syncwarp();
        buf[t] += add;
        __syncwarp();
    }
    out[blockIdx.x * 128 + t] = buf[t];
}
