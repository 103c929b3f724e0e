// A private array initialised from a constant: its loads read the initial
// contents, as long as nothing else can write it.
int small(int *x) {
  __requires(x[get_global_id(0)] < 10);
  return x[get_global_id(0)];
}
__kernel void initialised(__global int *A) {
  int x[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  A[get_global_id(0)] = small(x);
}
// Written after the initialisation.
__kernel void overwritten(__global int *A) {
  int x[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  x[get_global_id(0)] = 100;
  A[get_global_id(0)] = small(x);
}
// The contents are known exactly.
__kernel void assert_initial(__global int *A) {
  int x[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  __assert(x[get_global_id(0)] == get_global_id(0));
  A[get_global_id(0)] = x[get_global_id(0)];
}
