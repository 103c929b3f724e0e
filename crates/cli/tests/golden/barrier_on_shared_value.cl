// expect: verified
// flags: --local_size=64 --num_groups=4 --mode=prove
// Every work-item of a group reads the same element after a barrier and
// branches on it to another barrier. The reads see one value (a write in
// between would race with one of them, and races are checked), so the
// branch is uniform in the group and the barrier inside it is reached by
// all or none of the group's work-items.
__kernel void flag_rounds(__local int *flags, __global int *out) {
  flags[get_local_id(0)] = out[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (flags[0] == 22) {
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 4; i++) {
      flags[get_local_id(0)] = i;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  out[get_global_id(0)] = flags[get_local_id(0)];
}
