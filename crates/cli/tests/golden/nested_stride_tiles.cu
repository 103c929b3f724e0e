// expect: verified
// flags: --blockDim=256 --gridDim=4 --mode=prove
// Tiles of a shared buffer walked by two nested loops whose counters
// advance by the block size: the inner loop starts where the outer one is,
// so both counters stay multiples of the block size, and each thread only
// ever writes its own slot of a tile. The stride rule's `j % stride == 0`
// says so, and its ghost copy around the outer loop says it of a write
// logged in an earlier run of the inner loop.
__global__ void fill_tiles(int *buf) {
  for (int i = 0; i < blockDim.x * 8; i += blockDim.x) {
    for (int j = i; j < blockDim.x * 8; j += blockDim.x) {
      buf[j + threadIdx.x] = threadIdx.x;
    }
  }
}
