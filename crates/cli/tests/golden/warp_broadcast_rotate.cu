// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Each warp stages its values in its own 32-slot segment of shared memory,
// rotated by an amount lane 0 reads and broadcasts with __shfl_sync: the
// lanes of one warp agree on the rotation, so they write distinct slots,
// and after __syncwarp each reads its neighbour's.
__global__ void rotate_stage(const int *in, int *out, const unsigned *rot_of) {
    __shared__ int buf[256];
    unsigned lane = threadIdx.x % 32;
    unsigned warp = threadIdx.x / 32;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned rot = 0;
    if (lane == 0) rot = rot_of[blockIdx.x * 8 + warp];
    rot = __shfl_sync(0xffffffffu, rot, 0);
    buf[warp * 32 + ((lane + rot) & 31)] = in[i];
    __syncwarp();
    out[i] = buf[warp * 32 + ((lane + rot + 1) & 31)];
}
