// expect: verified
// flags:
// Host code that calls through a virtual table: the launch size comes from
// a virtual method of a class `main` allocates with `new`. The class's
// table is filled in from its initialiser, with the addresses of the
// methods the program can reach through it.
#include <cstdio>

struct Shape {
  virtual ~Shape() {}
  virtual int elements() const = 0;
};

struct Square : Shape {
  explicit Square(int side) : side(side) {}
  int elements() const override { return side * side; }
  int side;
};

__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i;
}

int main() {
  Shape *shape = new Square(16);
  int n = shape->elements();
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<(n + 127) / 128, 128>>>(d, n);
  cudaFree(d);
  delete shape;
  printf("%d elements\n", n);
  return 0;
}
