// expect: verified
// flags: --blockDim=64 --gridDim=4
// Each thread scales a strided slice of its row (the start depends on the
// thread, the step is a constant), writing each element it reads. Most loop
// candidates (bounds relative to the start, uniformity of the counter)
// are false in the first iterations a concrete run goes through: the
// Daikon filter drops them before inference, with the same verdict.
__global__ void strided_rows(const float *in, float *out, int n, int width) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) return;
    for (int j = threadIdx.x % 4; j < width; j += 4) {
        out[row * width + j] = 2.0f * in[row * width + j];
    }
}
