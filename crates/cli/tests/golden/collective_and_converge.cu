// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Jacobi-style smoothing of a block's tile until every thread's change is
// small: __syncthreads_and decides for the whole block, so the barriers
// inside the loop are reached by all threads or none.
__global__ void smooth(float *grid, float tol, int max_iter) {
    __shared__ float cur[256];
    __shared__ float nxt[256];
    unsigned t = threadIdx.x;
    unsigned g = blockIdx.x * blockDim.x + t;
    cur[t] = grid[g];
    __syncthreads();
    int iter = 0;
    int settled = 0;
    while (!__syncthreads_and(settled)) {
        float l = t > 0 ? cur[t - 1] : cur[t];
        float r = t + 1 < blockDim.x ? cur[t + 1] : cur[t];
        nxt[t] = 0.5f * cur[t] + 0.25f * (l + r);
        settled = fabsf(nxt[t] - cur[t]) < tol || ++iter >= max_iter;
        __syncthreads();
        cur[t] = nxt[t];
    }
    grid[g] = cur[t];
}
