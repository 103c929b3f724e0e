// expect: errors
// flags: --blockDim=64 --gridDim=4
// daikon_strided_rows.cu with one bug: two threads write each output.
__global__ void strided_rows(const float *in, float *out, int n, int width) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) return;
    float acc = 0.0f;
    for (int j = threadIdx.x % 4; j < width; j += 4) {
        acc += in[row * width + j];
    }
    out[row / 2] = acc;
}
