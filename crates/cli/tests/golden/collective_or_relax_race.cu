// expect: errors
// flags: --blockDim=256 --gridDim=1024
// As collective_or_relax.cu, but the barrier between reading the neighbour and
// writing one's own cell is missing: the write races with the neighbour's
// read in the same pass.
__global__ void relax_rows(int *cells, const int *step) {
    __shared__ int best[256];
    unsigned me = threadIdx.x;
    unsigned base = blockIdx.x * blockDim.x;
    best[me] = cells[base + me];
    __syncthreads();
    int lowered = 1;
    while (__syncthreads_or(lowered)) {
        int offer = me == 0 ? best[me] : best[me - 1] + step[base + me];
        lowered = offer < best[me];
        if (lowered) best[me] = offer;
    }
    cells[base + me] = best[me];
}
