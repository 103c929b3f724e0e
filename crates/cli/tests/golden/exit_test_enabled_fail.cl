// expect: possible-errors
// flags: --local_size=32 --num_groups=8 --mode=prove
// As exit_test_enabled.cl, but the assertion also claims the work-items
// that left the loop (`r == get_group_id(0)`) are enabled.
kernel void rows(global int *out) {
  for (int r = 0; r < get_group_id(0); r++) {
    if (r < get_local_id(0)) {
      __global_assert(__implies((r <= get_group_id(0)) & (r < get_local_id(0)), __enabled()));
      out[get_global_id(0)] = r;
    }
  }
}
