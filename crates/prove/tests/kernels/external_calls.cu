struct s {
  int a;
};
__device__ void bar(s x);
__device__ void baz(int *p);
// A struct passed by value goes through a private copy.
__global__ void by_value(s *x) {
  bar(x[threadIdx.x]);
}
// A global pointer passed to a function without a body.
__global__ void global_pointer(int *A) {
  baz(A);
}
