// expect: errors
// flags: --blockDim=256 --gridDim=1024
// __syncthreads_or reached by only the first half of the block: the
// collective is a barrier, and the other half never arrives.
__global__ void half_vote(const int *flags, int *out) {
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    int any = 0;
    if (t < blockDim.x / 2) any = __syncthreads_or(flags[i]);
    out[i] = any;
}
