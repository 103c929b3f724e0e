// expect: errors
// flags: --local_size=64 --num_groups=2
// The call breaks the callee's precondition: an error of the caller, not an
// input the kernel may refuse.
int halve(int a) {
  __requires(a > 0);
  return a / 2;
}

kernel void k(global int *out) {
  out[get_global_id(0)] = halve(get_local_id(0));
}
