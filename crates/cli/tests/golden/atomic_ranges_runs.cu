// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Issue #16 item 7, reservations of variable size: each thread reserves
// as many output slots as its run is long with one atomicAdd of that
// length, then fills its range in a loop. The ranges [pos, pos + len)
// that two executions of the addition return are disjoint (every write of
// `total` is an atomicAdd), under the stated assumption that the lengths
// never carry the counter past its largest value.
__global__ void expand_runs(const unsigned *len, const float *value, float *out, unsigned *total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned k = len[i];
        unsigned pos = atomicAdd(total, k);
        for (unsigned j = 0; j < k; j++)
            out[pos + j] = value[i];
    }
}
