// expect: possible-errors
// flags: --blockDim=256 --gridDim=1024
// As warp_broadcast_rotate.cu, but each lane takes the rotation from lane 0 or
// lane 1 by its own parity: the two halves of a warp disagree on the
// rotation and two lanes can write the same slot.
__global__ void rotate_stage(const int *in, int *out, const unsigned *rot_of) {
    __shared__ int buf[256];
    unsigned lane = threadIdx.x % 32;
    unsigned warp = threadIdx.x / 32;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned rot = 0;
    if (lane == 0) rot = rot_of[blockIdx.x * 8 + warp];
    rot = __shfl_sync(0xffffffffu, rot, lane & 1);
    buf[warp * 32 + ((lane + rot) & 31)] = in[i];
    __syncwarp();
    out[i] = buf[warp * 32 + ((lane + rot + 1) & 31)];
}
