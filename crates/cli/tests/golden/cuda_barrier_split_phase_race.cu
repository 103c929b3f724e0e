// expect: errors
// flags: --blockDim=64 --gridDim=2
// As cuda_barrier_split_phase, but without the barrier after each step's
// writes: the next step reads neighbours that may not have been written
// yet, or overwrite values another thread has still to read.
#include <cuda/barrier>
#include <utility>

__global__ void smooth(float *row, int steps) {
  __shared__ cuda::barrier<cuda::thread_scope_block> phase;
  __shared__ float cur[64];
  unsigned t = threadIdx.x;
  if (t == 0) init(&phase, blockDim.x);
  cur[t] = row[blockIdx.x * 64 + t];
  __syncthreads();
  for (int s = 0; s < steps; ++s) {
    float left = cur[t == 0 ? 0 : t - 1];
    float mid = cur[t];
    float right = cur[t == 63 ? 63 : t + 1];
    auto token = phase.arrive();
    float next = 0.25f * left + 0.5f * mid + 0.25f * right;
    phase.wait(std::move(token));
    cur[t] = next;
    // (missing: phase.arrive_and_wait();)
  }
  row[blockIdx.x * 64 + t] = cur[t];
}
