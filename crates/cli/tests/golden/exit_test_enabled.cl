// expect: verified
// flags: --local_size=32 --num_groups=8 --mode=prove
// Every work-item whose counter still passes the loop's exit test, and
// that reached the loop, is in it: the guard-bound rule's candidate
// `reached && r < n => in the loop` lets a global assertion about the
// other work-item's enabledness hold.
kernel void rows(global int *out) {
  for (int r = 0; r < get_group_id(0); r++) {
    if (r < get_local_id(0)) {
      __global_assert(__implies((r < get_group_id(0)) & (r < get_local_id(0)), __enabled()));
      out[get_global_id(0)] = r;
    }
  }
}
