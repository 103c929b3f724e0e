// expect: errors
// flags:
// A kernel that reads threadIdx.y is still checked for 2-D and 3-D launches
// when no sizes are given: rows of a block overwrite each other's slot.
__global__ void rows(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.y;
}
