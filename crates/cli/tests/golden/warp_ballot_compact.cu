// expect: verified
// flags: --blockDim=32 --gridDim=1
// Warp-aggregated stream compaction within one warp: the kept lanes get
// consecutive slots after one atomicAdd by the first kept lane, whose old
// value is broadcast; a lane's slot adds its rank among the kept lanes below.
__global__ void keep_positive(const int *in, int *out, int *count) {
    unsigned lane = threadIdx.x % 32;
    int v = in[threadIdx.x];
    bool keep = v > 0;
    unsigned kept = __ballot_sync(0xffffffffu, keep);
    int leader = __ffs(kept) - 1;
    int base = 0;
    if (keep && lane == leader) base = atomicAdd(count, __popc(kept));
    base = __shfl_sync(0xffffffffu, base, leader < 0 ? 0 : leader);
    if (keep) out[base + __popc(kept & ((1u << lane) - 1))] = v;
}
