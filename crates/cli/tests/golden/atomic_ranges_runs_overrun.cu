// expect: errors
// flags: --blockDim=256 --gridDim=1024
// Issue #16 item 7, one bug: the variable reservations of
// atomic_ranges_runs.cu filled one slot too far (`j <= k`), so a thread
// writes the first slot of the range the next addition returned.
__global__ void expand_runs(const unsigned *len, const float *value, float *out, unsigned *total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned k = len[i];
        unsigned pos = atomicAdd(total, k);
        for (unsigned j = 0; j <= k; j++)
            out[pos + j] = value[i];
    }
}
