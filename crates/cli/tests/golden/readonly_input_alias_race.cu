// expect: errors
// flags: --blockDim=64 --gridDim=4
// The input is declared `const`, but the kernel casts the qualifier away
// and writes through the cast pointer: thread i writes element i + 1,
// which thread i + 1 reads. The input is written after all, so its reads
// must still be checked against those writes.
__global__ void shift_in_place(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) {
        out[i] = in[i];
        float *w = (float *)in;
        w[i + 1] = 0.0f;
    }
}
