// expect: errors
// flags: --blockDim=128 --gridDim=64
// BUG: the copy writes out[i / 2]: the threads of elements 2k and 2k + 1
// write the same element (a write-write race).
// Three loops in sequence: a strided accumulation into a private sum, a
// tree reduction in shared memory, and a strided copy out. Each loop's
// candidate invariants are checked under the invariants of the loops
// before it; when the first loop's set changes, the later loops are asked
// again, and only then.
#define B 128

__global__ void loops_in_sequence(const int *in, int *out, int *sums, int n) {
  __shared__ int part[B];
  int t = threadIdx.x;
  int acc = 0;
  for (int i = blockIdx.x * B + t; i < n; i += gridDim.x * B)
    acc += in[i];
  part[t] = acc;
  __syncthreads();
  for (int s = B / 2; s > 0; s /= 2) {
    if (t < s)
      part[t] += part[t + s];
    __syncthreads();
  }
  for (int i = blockIdx.x * B + t; i < n; i += gridDim.x * B)
    out[i / 2] = in[i] - part[0];
  if (t == 0)
    sums[blockIdx.x] = part[0];
}
