// expect: possible-errors
// flags:
// The program allocates with `cudaMallocAsync`, which lockstep does not
// model: its out-pointer is never set in the run, so the copy that follows
// sees a null destination. That may be the model's doing, not the
// program's: a possible error, with the unmodelled call in the witness.
__global__ void twice(int *v) {
  v[threadIdx.x] *= 2;
}

int main() {
  int host[64] = {0};
  int *device = 0;
  cudaStream_t stream = 0;
  cudaMallocAsync((void **)&device, sizeof host, stream);
  cudaMemcpyAsync(device, host, sizeof host, cudaMemcpyHostToDevice, stream);
  twice<<<1, 64, 0, stream>>>(device);
  cudaStreamSynchronize(stream);
  return 0;
}
