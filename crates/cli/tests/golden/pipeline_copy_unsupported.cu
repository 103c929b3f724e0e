// expect: unknown
// flags: --blockDim=128 --gridDim=4
// A per-thread cuda::pipeline copy completes at the pipeline's
// consumer_wait, which lockstep does not model: the kernel that uses it is
// `unknown`, with the copy's line, and the other kernel of the file is
// still checked.
#include <cuda/pipeline>

__global__ void staged_shift(const int *in, int *out) {
  __shared__ int stage[128];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&stage[t], &in[i], sizeof(int), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  out[i] = stage[(t + 1) % blockDim.x];
  pipe.consumer_release();
}

__global__ void plain_shift(const int *in, int *out) {
  __shared__ int stage[128];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  stage[t] = in[i];
  __syncthreads();
  out[i] = stage[(t + 1) % blockDim.x];
}
