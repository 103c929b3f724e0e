// expect: possible-errors
// flags: --blockDim=256 --gridDim=1 --mode=prove
// As nested_stride_tiles.cu, but the inner loop of round r starts r
// elements past the outer counter: thread 0's slot in round 1 is thread
// 1's in round 0, and with no barrier between the rounds two threads write
// one element.
__global__ void fill_tiles_shifted(int *buf) {
  for (int i = 0; i < blockDim.x * 8; i += blockDim.x) {
    for (int j = i + i / blockDim.x; j < blockDim.x * 8; j += blockDim.x) {
      buf[j + threadIdx.x] = threadIdx.x;
    }
  }
}
