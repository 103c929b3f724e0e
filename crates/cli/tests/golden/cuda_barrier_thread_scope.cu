// expect: verified
// flags: --blockDim=128 --gridDim=4
// A thread-scope cuda::barrier belongs to the thread that declares it: it
// orders that thread's own work (here, an update of the element the thread
// itself wrote) and nothing between threads. Its expected count is 1, not
// the block's size, and no other thread takes part.
#include <cuda/barrier>

__global__ void offset_scale(float *out, const float *in, int n) {
  cuda::barrier<cuda::thread_scope_thread> own;
  init(&own, 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
  own.arrive_and_wait();
  if (i < n) out[i] += 1.0f;
}
