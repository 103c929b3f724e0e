// expect: errors
// flags: --blockDim=64 --gridDim=4096
// Rows of `stride` elements, one block each, with `stride` at least the
// block's size: the rows still meet where the unsigned product
// `blockIdx.x * stride` wraps (C defines it, so no assumption excludes it),
// at strides near 2^30. The element the witness's threads both write lies
// past 4 GiB into a buffer of unknown size: the confirming replay runs a
// second time with a buffer that reaches it.
__global__ void rows(int *out, int stride) {
    __requires(stride >= 64);
    out[blockIdx.x * stride + threadIdx.x] = blockIdx.x;
}
