// expect: verified
// flags: --blockDim=64 --gridDim=4
// A 3-tap horizontal filter over each row of an h x w image, blocks taking
// rows in turn: the input is only read (three reads per output element,
// from neighbouring threads' columns too), the output written once per
// element. Reads of an array that nothing writes race with nothing, so the
// prover keeps no log of them.
__global__ void row_filter(const float *in, float *out, int h, int w) {
    for (int r = blockIdx.x; r < h; r += gridDim.x) {
        for (int c = threadIdx.x + 1; c < w - 1; c += blockDim.x) {
            float left = in[r * w + c - 1];
            float mid = in[r * w + c];
            float right = in[r * w + c + 1];
            out[r * w + c] = 0.25f * left + 0.5f * mid + 0.25f * right;
        }
    }
}
