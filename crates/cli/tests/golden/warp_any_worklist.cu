// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Each lane follows its own chain; the warp keeps iterating while any lane
// still has a node, and lanes exchange partial sums with their neighbour
// every step (the shuffle is executed by every lane of the warp).
__global__ void chase(const int *next, const int *val, const int *start, int *sum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int node = i < n ? start[i] : -1;
    int acc = 0;
    while (__any_sync(0xffffffffu, node >= 0)) {
        if (node >= 0) {
            acc += val[node];
            node = next[node];
        }
        int mate = __shfl_xor_sync(0xffffffffu, acc, 1);
        acc = acc > mate ? acc : mate;
    }
    if (i < n) sum[i] = acc;
}
