// expect: verified
// flags:
// A file without `main` whose host code launches a 2-D tile kernel through
// `cudaLaunchKernel` with a constant 16x16 block: checked alone, the kernel
// is checked as that launch site launches it, as for `<<<>>>`. (With other
// block shapes the shared tile would overflow.)
#include <cuda_runtime.h>

__global__ void transpose16(float *out, const float *in) {
  unsigned width = gridDim.x * 16;
  __shared__ float tile[16][17];
  unsigned x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  unsigned tx = blockIdx.y * 16 + threadIdx.x, ty = blockIdx.x * 16 + threadIdx.y;
  out[ty * width + tx] = tile[threadIdx.x][threadIdx.y];
}

cudaError_t transpose(float *out, const float *in) {
  dim3 block(16, 16);
  dim3 grid(8, 8);
  void *args[] = {&out, &in};
  return cudaLaunchKernel((const void *)transpose16, grid, block, args, 0, 0);
}
