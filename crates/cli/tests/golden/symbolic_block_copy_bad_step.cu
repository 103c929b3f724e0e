// expect: errors
// Issue #16: no launch sizes given (symbolic blockDim/gridDim).
// The bug: the step is one less than the block size, so thread 0's second
// offset is the last thread's first one.
// Each block copies its own segment of `n` elements, doubled: block b owns
// dst[b * n .. b * n + n), and its threads walk the segment with a
// block-strided offset.
__global__ void copy_segments(float *dst, const float *src, int n) {
  for (int k = threadIdx.x; k < n; k += blockDim.x - 1) {
    int at = (int)blockIdx.x * n + k;
    dst[at] = 2.0f * src[at];
  }
}
