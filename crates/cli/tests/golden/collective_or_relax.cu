// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Block-local relaxation: every pass lowers each cell to its left
// neighbour's value plus a step cost, until no thread of the block lowered
// anything (the loop is steered by __syncthreads_or).
__global__ void relax_rows(int *cells, const int *step) {
    __shared__ int best[256];
    unsigned me = threadIdx.x;
    unsigned base = blockIdx.x * blockDim.x;
    best[me] = cells[base + me];
    __syncthreads();
    int lowered = 1;
    while (__syncthreads_or(lowered)) {
        int offer = me == 0 ? best[me] : best[me - 1] + step[base + me];
        __syncthreads();
        lowered = offer < best[me];
        if (lowered) best[me] = offer;
    }
    cells[base + me] = best[me];
}
