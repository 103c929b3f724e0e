// expect: verified
// flags: --local_size=64 --num_groups=2 --vcgen-opt=/checkArrays:out
// GPUVerify's `/checkArrays:out` restricts race checking (and the access
// logs that `__write` consults) to `out`: the race on `scratch` is not
// looked for, and `__no_write(scratch)` has no log to contradict it.

kernel void restricted(global int *out, global int *scratch) {
  scratch[0] = get_global_id(0);
  out[get_global_id(0)] = 1;
  __assert(__no_write(scratch));
}
