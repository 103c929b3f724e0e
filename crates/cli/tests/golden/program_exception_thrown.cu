// expect: unknown
// flags:
// A program that throws: exceptions are not modelled, so the run stops at
// the throw (`unknown`, at the throwing line) instead of going on as if the
// call had returned; the launch after it, which would overrun the buffer,
// is never reached by the real program either.
#include <cstdio>
#include <stdexcept>
#include <vector>

__global__ void fill(int *a) { a[threadIdx.x] = 1; }

static void require(bool ok, const char *what) {
  if (!ok) throw std::runtime_error(what);
}

int main() {
  std::vector<int> host(4);
  int *d;
  cudaMalloc(&d, 4 * sizeof(int));
  fill<<<1, 4>>>(d);
  require(host.size() == 8, "the buffer has the wrong size");
  fill<<<1, 8>>>(d);
  return 0;
}
