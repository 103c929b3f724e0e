// expect: errors
// flags: --local_size=64 --num_groups=2
// An uninitialised pointer may hold anything, so the claim that it is null
// can fail.
__kernel void k() {
  int *x;
  __assert(x == 0);
}
