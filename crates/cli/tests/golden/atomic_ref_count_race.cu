// expect: errors
// flags: --blockDim=256 --gridDim=16
// As atomic_ref_count.cu, but thread 0 of each block also resets the
// counter with a plain store: it races with the other threads' atomics.
#include <cuda/atomic>

__global__ void count_positive(const int *in, unsigned *count) {
  if (threadIdx.x == 0) {
    *count = 0;
  }
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*count);
    c.fetch_add(1u, cuda::std::memory_order_relaxed);
  }
}
