// expect: verified
// flags:
// A host program in everyday C++: a class allocated with `new` and an RAII
// buffer of the standard library. Calls that may throw compile to LLVM's
// `invoke`; the run follows the way they return, and the launch runs with
// the sizes `main` gives it.
#include <cstdio>
#include <vector>

class Stopwatch {
public:
  Stopwatch() : ticks(0) {}
  ~Stopwatch() {}
  void tick() { ticks++; }
  long ticks;
};

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1000;
  Stopwatch *watch = new Stopwatch();
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  watch->tick();
  saxpy<<<(n + 255) / 256, 256>>>(3.0f, dx, dy, n);
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  watch->tick();
  for (int i = 0; i < n; i++) {
    if (y[i] != 5.0f) {
      printf("mismatch at %d\n", i);
      return 1;
    }
  }
  printf("%ld ticks\n", watch->ticks);
  delete watch;
  cudaFree(dx);
  cudaFree(dy);
  return 0;
}
