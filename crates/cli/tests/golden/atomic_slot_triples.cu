// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Issue #16 item 7: a grid-stride loop emits a triangle's three vertex ids
// into an output list; each emission reserves three consecutive slots with
// one atomicAdd by 3 and fills slot, slot + 1 and slot + 2 (the last with
// a 64-bit index): the reservations of distinct increments are disjoint.

__global__ void emit_triangles(const int *keep, const unsigned *tri, unsigned *list, unsigned *count, int n) {
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += gridDim.x * blockDim.x) {
    if (keep[t]) {
      unsigned s = atomicAdd(count, 3u);
      list[s] = tri[3 * t];
      list[s + 1] = tri[3 * t + 1];
      list[(size_t)s + 2] = tri[3 * t + 2];
    }
  }
}
