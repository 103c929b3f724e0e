// expect: errors
// flags: --blockDim=256 --gridDim=1024
// As atomic_slot_grid_stride.cu, with two defects: in `compact` two slots
// share one element of out (slot / 2), and in `per_block` every block
// counts its own slots from its own counter, so threads of two blocks get
// the same slot of the one output array.

__global__ void compact(const int *in, int *out, int *count, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (in[i] >= 0) {
      int slot = atomicAdd(count, 1);
      out[slot / 2] = i;
    }
  }
}

__global__ void per_block(const int *in, int *out, int *count, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (in[i] >= 0) {
      int slot = atomicAdd(&count[blockIdx.x], 1);
      out[slot] = i;
    }
  }
}
