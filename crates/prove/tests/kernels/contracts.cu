__device__ int half(int a) {
  __requires(a > 0);
  __ensures(__return_val_int() >= 0);
  return a / 2;
}
__global__ void ensures_ok(int *A) {
  int x = half(5);
  __assert(x >= 0);
  A[threadIdx.x] = x;
}
__device__ int half_positive(int a) {
  __requires(a > 0);
  __ensures(__return_val_int() > 0);
  return a / 2;
}
// Every actual call satisfies the postcondition, but the contract itself
// does not hold (a == 1): GPUVerify checks contracts modularly.
__global__ void ensures_modular(int *A) {
  A[threadIdx.x] = half_positive(6);
}
__device__ int *same(int *p) {
  __ensures(__return_val_ptr() == p);
  return p;
}
__global__ void ensures_ptr(int *p) {
  same(p)[threadIdx.x] = 0;
}
__device__ int next(int x) {
  __requires(__implies(__enabled(), __distinct_int(x)));
  __ensures(__implies(__enabled(), __distinct_int(__return_val_int())));
  return x + 1;
}
__global__ void ensures_distinct(int *A) {
  A[next(threadIdx.x)] = 0;
}
__device__ int wrong(int x) {
  __ensures(__return_val_int() == x);
  return x + 1;
}
__global__ void ensures_fails(int *A) {
  A[threadIdx.x] = wrong(threadIdx.x);
}
