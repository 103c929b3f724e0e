// A race-free kernel for the thread-count benchmark (scripts/bench.sh).
//
// A grid-stride loop over global memory (each thread owns the elements
// i = gid, gid + stride, ...), then a shared-memory tile: each thread writes
// its own slot, a barrier, each thread reads its mirror slot, a barrier, and
// the tile is reused for a second round. No two threads touch one element
// between barriers, for any blockDim <= 1024 and any gridDim.

#define TILE 1024

__global__ void stride_and_tile(const int *in, int *out, int *mirror, int n) {
  // A negative n would read as a huge unsigned bound (i < n compares
  // unsigned), and i += stride could wrap around onto another thread's
  // elements: two threads writing one element.
  __requires(n >= 0);
  __shared__ int tile[TILE];
  unsigned t = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + t;
  unsigned stride = blockDim.x * gridDim.x;

  for (unsigned i = gid; i < n; i += stride) {
    out[i] = 2 * in[i] + 1;
  }

  tile[t] = in[gid];
  __syncthreads();
  int v = tile[blockDim.x - 1 - t];
  __syncthreads();
  tile[t] = v + 1;
  __syncthreads();
  mirror[gid] = tile[blockDim.x - 1 - t];
}
