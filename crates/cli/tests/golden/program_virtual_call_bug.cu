// expect: errors
// flags:
// The defect: the buffer is sized by one virtual method (the side) and the
// launch by another (the area), so the kernel writes past its end
// (program_virtual_call.cu is the correct program).
#include <cstdio>

struct Shape {
  virtual ~Shape() {}
  virtual int elements() const = 0;
};

struct Square : Shape {
  explicit Square(int side) : side(side) {}
  int elements() const override { return side * side; }
  virtual int side_length() const { return side; }
  int side;
};

__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i;
}

int main() {
  Square *shape = new Square(16);
  int n = shape->elements();
  int *d;
  cudaMalloc(&d, shape->side_length() * sizeof(int));
  fill<<<(n + 127) / 128, 128>>>(d, n);
  cudaFree(d);
  delete shape;
  printf("%d elements\n", n);
  return 0;
}
