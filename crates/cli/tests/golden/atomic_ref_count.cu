// expect: verified
// flags: --blockDim=256 --gridDim=16
// Each thread that sees a positive element counts it with libcu++'s
// cuda::atomic_ref on one global counter: atomic updates do not race.
#include <cuda/atomic>

__global__ void count_positive(const int *in, unsigned *count) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*count);
    c.fetch_add(1u, cuda::std::memory_order_relaxed);
  }
}
