// expect: verified
// flags: --blockDim=64 --gridDim=32
// Row-cell lemma (prove/src/encode/cells.rs), 32-bit shape: a transposed
// copy in which a block owns the columns of `in` (grid-stride) and its
// threads the rows (block-stride); the write `out[c * m + r]` is an `int`
// index `mul(c, m) + r`, sign-extended and scaled. Distinct (c, r) cells
// are distinct elements.
__global__ void transpose_cols(const float *in, float *out, int m, int n) {
    for (int c = blockIdx.x; c < n; c += gridDim.x)
        for (int r = threadIdx.x; r < m; r += blockDim.x)
            out[c * m + r] = in[r * n + c];
}
