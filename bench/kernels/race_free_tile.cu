// A race-free kernel without loops for the thread-count benchmark
// (scripts/bench.sh): each thread stages its element in a shared tile,
// reads its mirror slot after a barrier, and writes its own output element.

#define TILE 1024

__global__ void mirror_tile(const int *in, int *out) {
  __shared__ int tile[TILE];
  unsigned t = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + t;

  tile[t] = in[gid];
  __syncthreads();
  int v = tile[blockDim.x - 1 - t];
  __syncthreads();
  tile[t] = v + 1;
  __syncthreads();
  out[gid] = tile[blockDim.x - 1 - t];
}
