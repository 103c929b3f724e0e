// expect: possible-errors
// flags: --blockDim=96 --gridDim=1 --mode=prove
// As stride_offset_start.cu, but the upward loop steps by 95 elements for
// 96 threads: thread 95's first element is thread 0's second.
__global__ void offset_starts(int *a, int *b, unsigned n) {
  __requires(n <= 0x7fffffff);
  for (int i = 960 + threadIdx.x; i >= 96; i += -96) {
    a[i] = i;
  }
  for (unsigned i = 100 + threadIdx.x; i < n; i += 95) {
    b[i] = i;
  }
}
