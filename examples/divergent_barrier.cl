// expect: errors
// flags: --local_size=64 --num_groups=4
//
// Only the work-items of the lower half reach the barrier: barrier divergence.

__kernel void halves(__local int *scratch, __global int *data) {
  size_t lid = get_local_id(0);
  if (lid < get_local_size(0) / 2) {
    scratch[lid] = data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    data[get_global_id(0)] = scratch[lid + 1];
  }
}
