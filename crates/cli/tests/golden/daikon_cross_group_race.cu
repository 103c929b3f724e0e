// expect: errors
// flags: --blockDim=64 --gridDim=32
// The one-bug variant of `daikon_cross_group_pairs.cu`: the write drops
// the tile's offset, so every block writes the first 64 elements of `out`,
// and two blocks race there. Dropping log candidates for pairs of two
// blocks must leave this race reported.
__global__ void mirror_tiles(const float *in, float *out, int tiles) {
    __shared__ float tile[64];
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        tile[threadIdx.x] = in[t * 64 + threadIdx.x];
        __syncthreads();
        out[threadIdx.x] = tile[63 - threadIdx.x];
        __syncthreads();
    }
}
