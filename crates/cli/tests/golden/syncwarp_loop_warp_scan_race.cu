// expect: errors
// flags: --blockDim=128 --gridDim=64
// As syncwarp_loop_warp_scan, but without the __syncwarp() between reading
// the lower lane's value and adding to its own: lane d reads buf[0] while
// lane 0 may already have added to it (the one-bug variant).
__global__ void warp_scans_unsynced(const int *in, int *out) {
    __shared__ int buf[128];
    unsigned t = threadIdx.x;
    unsigned lane = t % 32;
    buf[t] = in[blockIdx.x * 128 + t];
    __syncwarp();
    for (unsigned d = 1; d < 32; d *= 2) {
        int add = 0;
        if (lane >= d)
            add = buf[t - d];
        buf[t] += add;
        __syncwarp();
    }
    out[blockIdx.x * 128 + t] = buf[t];
}
