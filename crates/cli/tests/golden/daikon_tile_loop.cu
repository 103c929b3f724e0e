// expect: verified
// flags: --blockDim=32 --gridDim=8
// A 3-point blur over a grid-stride loop of tiles staged in shared memory,
// with a barrier before and after each use of the tile. The loop's counter
// starts at a different value in each group and steps by the grid's width:
// the candidates that say otherwise are falsified by a concrete run and
// dropped before inference (the Daikon filter), with the same verdict.
#define T 32
__global__ void tile_loop(const float *in, float *out, int n) {
    __shared__ float tile[T + 2];
    for (int base = blockIdx.x * T; base < n; base += gridDim.x * T) {
        int i = base + threadIdx.x;
        tile[threadIdx.x + 1] = i < n ? in[i] : 0.0f;
        if (threadIdx.x == 0)
            tile[0] = base > 0 ? in[base - 1] : 0.0f;
        if (threadIdx.x == T - 1)
            tile[T + 1] = base + T < n ? in[base + T] : 0.0f;
        __syncthreads();
        if (i < n)
            out[i] = (tile[threadIdx.x] + tile[threadIdx.x + 1] + tile[threadIdx.x + 2]) / 3.0f;
        __syncthreads();
    }
}
