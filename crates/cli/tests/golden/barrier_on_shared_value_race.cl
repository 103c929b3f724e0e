// expect: possible-errors
// flags: --local_size=64 --num_groups=4 --mode=prove
// As barrier_on_shared_value.cl, but work-item 0 writes the element the
// others read in the same barrier interval: the write races with their
// reads, which may then see different values and diverge at the barrier.
__kernel void flag_rounds_racy(__local int *flags, __global int *out) {
  flags[get_local_id(0)] = out[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    flags[0] = 22;
  }
  if (flags[0] == 22) {
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
