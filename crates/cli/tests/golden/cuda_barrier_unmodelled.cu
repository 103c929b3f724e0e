// expect: unknown
// flags: --blockDim=64 --gridDim=2
// Forms of cuda::barrier that lockstep does not model make only the kernels
// that reach them unknown, naming the call: an access between `arrive()`
// and `wait()` (ordered with neither side), and `arrive_and_drop()`. The
// third kernel uses no barrier and is checked.
#include <cuda/barrier>
#include <utility>

__global__ void overlap(int *out, const int *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> b;
  __shared__ int s[64];
  if (threadIdx.x == 0) init(&b, blockDim.x);
  __syncthreads();
  s[threadIdx.x] = in[threadIdx.x];
  auto token = b.arrive();
  out[blockIdx.x * 64 + threadIdx.x] = 0;
  b.wait(std::move(token));
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void leave_early(int *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> b;
  if (threadIdx.x == 0) init(&b, blockDim.x);
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = 1;
  b.arrive_and_drop();
}

__global__ void plain(int *out) {
  out[blockIdx.x * 64 + threadIdx.x] = 2;
}
