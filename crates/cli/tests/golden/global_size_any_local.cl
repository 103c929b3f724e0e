// expect: verified
// flags: --local_size=* --global_size=1024 --mode=prove
// With only the global size known, the group size is any divisor of it,
// and get_global_size is the global size whatever the group size is.
kernel void foo(global int *out) {
  __assert(get_global_size(0) == 1024);
  __assert(get_global_size(0) % get_local_size(0) == 0);
  out[get_global_id(0)] = get_local_size(0);
}
