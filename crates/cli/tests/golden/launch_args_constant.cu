// expect: verified
// A kernel that scatters its thread ids into every other element, from a
// stride and an offset passed as arguments. For a stride of 0 two threads
// would write the same element; the file's only launch passes stride 2 and
// offset 1, so the kernel is checked for those values.
__global__ void scatter(int *out, int n, int stride, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * stride + offset] = i;
}

void scatter_odd(int *out, int n) {
  scatter<<<(n + 255) / 256, 256>>>(out, n, 2, 1);
}
