// expect: errors
// flags: --blockDim=256 --gridDim=1024
// Issue #16 item 7, bug: the reservation is three slots but the last
// vertex is written at slot + 3, the first slot of the next reservation.

__global__ void emit_triangles(const int *keep, const unsigned *tri, unsigned *list, unsigned *count, int n) {
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += gridDim.x * blockDim.x) {
    if (keep[t]) {
      unsigned s = atomicAdd(count, 3u);
      list[s] = tri[3 * t];
      list[s + 1] = tri[3 * t + 1];
      list[(size_t)s + 3] = tri[3 * t + 2];
    }
  }
}
