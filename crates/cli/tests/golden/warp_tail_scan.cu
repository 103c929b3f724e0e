// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Each warp publishes one value per lane after a block-wide loop of
// rounds, then every lane reads its neighbour lane's value: the
// __syncwarp() between the warp's writes and reads orders them, and a
// lane of another warp never reads this warp's slots.

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
  unsigned lane = t % 32;
  unsigned next = t - lane + (lane + 1) % 32;
  out[blockIdx.x * 256 + t] = lane_val[next] - lane_val[t];
}
