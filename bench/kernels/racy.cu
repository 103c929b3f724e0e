// A racy kernel for the thread-count benchmark (scripts/bench.sh).
//
// Each thread stages one element in shared memory and then reads its right
// neighbour's slot without a barrier in between: thread t reads tile[t + 1]
// while thread t + 1 may still be writing it (a read/write data race on
// `tile`, in every block, whatever the launch size).

#define TILE 1024

__global__ void neighbour_sum(const int *in, int *out) {
  __shared__ int tile[TILE + 1];
  unsigned t = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + t;

  tile[t] = in[gid];
  // Missing: __syncthreads();
  out[gid] = tile[t] + tile[t + 1];
}
