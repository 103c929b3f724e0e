__global__ void counted(int *A) {
  unsigned i;
  for (i = 0; __invariant(i <= 100), i < 100; i++) {
  }
  __assert(i == 100);
}
__global__ void wrong(int *A) {
  unsigned i;
  for (i = 0; __invariant(i < 50), i < 100; i++) {
  }
}
__global__ void needed(int *A) {
  unsigned i;
  for (i = 0; i < 100; i++) {
  }
  __assert(i == 100);
}
