// expect: verified
// flags: --blockDim=64 --gridDim=4
// Each thread sums a strided slice of its row (the start depends on the
// thread, the step is a constant) and writes its own element. Most loop
// candidates (bounds relative to the start, uniformity of the counter)
// are false in the first iterations a concrete run goes through: the
// Daikon filter drops them before inference, with the same verdict.
__global__ void strided_rows(const float *in, float *out, int n, int width) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) return;
    float acc = 0.0f;
    for (int j = threadIdx.x % 4; j < width; j += 4) {
        acc += in[row * width + j];
    }
    out[row] = acc;
}
