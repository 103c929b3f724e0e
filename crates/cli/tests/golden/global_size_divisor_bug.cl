// expect: errors
// flags: --local_size=* --global_size=1024
// The kernel assumes it never runs in groups of 16, which divides the
// global size: a launch of 64 groups of 16 fails the assertion.
kernel void fill(global int *out) {
  __assert(get_local_size(0) != 16);
  out[get_global_id(0)] = get_local_size(0);
}
