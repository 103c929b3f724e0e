// expect: verified
// flags: --blockDim=64 --gridDim=32
// Pairs of neighbouring elements, reversed within each block's tile: each
// iteration of the grid-stride loop reads the tile into shared memory,
// waits at a barrier, writes the element its mirror thread read, and waits
// again. Writes of `out` from earlier iterations stay in a thread's log for
// threads of other blocks, which is what the Daikon filter evaluates the
// log candidates on for pairs of two blocks.
__global__ void mirror_tiles(const float *in, float *out, int tiles) {
    __shared__ float tile[64];
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        tile[threadIdx.x] = in[t * 64 + threadIdx.x];
        __syncthreads();
        out[t * 64 + threadIdx.x] = tile[63 - threadIdx.x];
        __syncthreads();
    }
}
