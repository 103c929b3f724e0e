// expect: possible-errors
// flags:
// The kernel is launched by a `<<<...>>>` site with 64-thread blocks, and
// also by `cudaLaunchKernel` with a block shape its caller chooses: the
// sites agree only on a 1-D grid, so it is checked for every block shape,
// and a block wider than the shared buffer writes past it.
__global__ void stage(float *out, const float *in) {
  __shared__ float buffer[64];
  buffer[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = buffer[63 - threadIdx.x];
}

void run(float *out, const float *in, int blocks, dim3 block) {
  stage<<<blocks, 64>>>(out, in);
  void *args[] = {&out, &in};
  cudaLaunchKernel((const void *)stage, dim3(blocks), block, args, 0, 0);
}
