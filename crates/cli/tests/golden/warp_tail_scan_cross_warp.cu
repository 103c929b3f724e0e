// expect: errors
// flags: --blockDim=256 --gridDim=1024
// As warp_tail_scan.cu, but the neighbour is taken across the block: lane
// 31 of warp 0 reads warp 1's slot 32, and __syncwarp() does not order
// accesses of different warps.

__global__ void neighbour_diff(const int *in, int *out) {
  __shared__ int acc[256];
  __shared__ int lane_val[256];
  unsigned t = threadIdx.x;
  acc[t] = 0;
  __syncthreads();
  for (int r = 0; r < 8; r++) {
    acc[t] += in[r * 256 + t];
    __syncthreads();
  }
  lane_val[t] = acc[t];
  __syncwarp();
  unsigned next = (t + 1) % 256;
  out[blockIdx.x * 256 + t] = lane_val[next] - lane_val[t];
}
