// expect: errors
// flags: --local_size=64 --num_groups=2 --vcgen-opt=/checkArrays:scratch
// The race on the array `/checkArrays` names is still found.

kernel void restricted(global int *out, global int *scratch) {
  scratch[0] = get_global_id(0);
  out[get_global_id(0)] = 1;
}
