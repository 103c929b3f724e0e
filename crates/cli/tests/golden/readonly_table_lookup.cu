// expect: verified
// flags: --blockDim=128 --gridDim=8
// Each thread maps its elements through a lookup table that every thread
// reads at data-dependent positions, in a grid-stride loop. The table and
// the codes are never written; only each thread's own output elements are.
__global__ void table_map(const int *codes, const float *table, float *out, int n, int entries) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int k = codes[i];
        if (k >= 0 && k < entries)
            out[i] = table[k];
        else
            out[i] = 0.0f;
    }
}
