// expect: verified
// flags: --local_size=* --global_size=1024
// With only the global size given, every engine (not only the prover)
// takes group sizes that divide it: the concrete and bounded searches must
// not "confirm" a failure at a launch of another global size.
kernel void fill(global int *out) {
  __assert(get_local_size(0) * get_num_groups(0) == 1024);
  out[get_global_id(0)] = get_local_size(0);
}
