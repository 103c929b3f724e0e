// Item 9, bug: the result index drops the block offset, so threads of
// different blocks write the same element.
__global__ void row_sums(const float *a, float *sums, int rows, int width) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float s = 0.0f;
    for (int j = threadIdx.x % 8; j < width; j += 8)
        s += a[r * width + j];
    sums[threadIdx.x] = s;
}
