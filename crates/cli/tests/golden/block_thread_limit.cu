// expect: possible-errors
// flags: --check-array-bounds
// Each thread of a block of any shape owns one slot of a shared array of
// 1024 entries, indexed by its linear thread id. A CUDA block has at most
// 1024 threads, whatever its shape, so the index stays in bounds; a launch
// of 45 x 1 x 63 threads (each dimension within its own limit) does not
// exist, and must not be a confirmed witness. The prover cannot yet show
// that the linear id of a 3-D block with symbolic sizes is in bounds and
// distinct per thread (it abstracts products of two symbolic values), so
// the verdict is possible-errors, not verified.
__global__ void linear_slots(int *out) {
  __shared__ int slot[1024];
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  slot[t] = (int)t;
  __syncthreads();
  unsigned n = blockDim.x * blockDim.y * blockDim.z;
  if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0)
    out[t] = slot[n - 1 - t];
}
