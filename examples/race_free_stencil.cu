// expect: verified
// flags: --blockDim=256 --gridDim=64
//
// A 1-D three-point stencil that stages its block's inputs in shared memory.
// Each thread writes only its own shared slot, and the barrier separates the
// writes from the reads of the neighbours' slots: no race.

#define BLOCK 256

__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK + 2];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lid = threadIdx.x + 1;

  tile[lid] = gid < n ? in[gid] : 0.0f;
  if (threadIdx.x == 0) {
    tile[0] = gid > 0 && gid - 1 < n ? in[gid - 1] : 0.0f;
    tile[BLOCK + 1] = gid + BLOCK < n ? in[gid + BLOCK] : 0.0f;
  }
  __syncthreads();

  if (gid < n) {
    out[gid] = (tile[lid - 1] + tile[lid] + tile[lid + 1]) / 3.0f;
  }
}
