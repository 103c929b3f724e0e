// expect: verified
// Issue #16: no launch sizes given (symbolic blockDim/gridDim).
// Each block copies its own segment of `n` elements, doubled: block b owns
// dst[b * n .. b * n + n), and its threads walk the segment with a
// block-strided offset. The segment's start is recomputed from the block
// index in every iteration, in signed arithmetic (the cast: `blockIdx.x * n`
// alone would be unsigned, and may wrap around, which does race).
__global__ void copy_segments(float *dst, const float *src, int n) {
  for (int k = threadIdx.x; k < n; k += blockDim.x) {
    int at = (int)blockIdx.x * n + k;
    dst[at] = 2.0f * src[at];
  }
}
