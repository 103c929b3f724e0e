// Item 9: per-row sums of a matrix with a symbolic row length: each thread
// owns a row and walks it with a stride of 8, then writes one result.
__global__ void row_sums(const float *a, float *sums, int rows, int width) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float s = 0.0f;
    for (int j = threadIdx.x % 8; j < width; j += 8)
        s += a[r * width + j];
    sums[r] = s;
}
