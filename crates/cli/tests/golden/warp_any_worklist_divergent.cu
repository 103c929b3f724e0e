// expect: errors
// flags: --blockDim=256 --gridDim=1024
// As warp_any_worklist.cu, but the loop runs while the lane's own chain lasts:
// lanes leave at different times and the shuffle reads lanes that are gone
// (the search finds a lane that never enters the loop, and the replay
// confirms it).
__global__ void chase(const int *next, const int *val, const int *start, int *sum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int node = i < n ? start[i] : -1;
    int acc = 0;
    while (node >= 0) {
        if (node >= 0) {
            acc += val[node];
            node = next[node];
        }
        int mate = __shfl_xor_sync(0xffffffffu, acc, 1);
        acc = acc > mate ? acc : mate;
    }
    if (i < n) sum[i] = acc;
}
