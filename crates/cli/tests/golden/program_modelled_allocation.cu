// expect: verified
// flags:
// As program_unmodelled_allocation.cu, with the allocation lockstep
// models (`cudaMalloc`): the run decides the program.
__global__ void twice(int *v) {
  v[threadIdx.x] *= 2;
}

int main() {
  int host[64] = {0};
  int *device = 0;
  cudaStream_t stream = 0;
  cudaMalloc((void **)&device, sizeof host);
  cudaMemcpyAsync(device, host, sizeof host, cudaMemcpyHostToDevice, stream);
  twice<<<1, 64, 0, stream>>>(device);
  cudaStreamSynchronize(stream);
  return 0;
}
