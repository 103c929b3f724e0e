// flags: --local_size=32 --num_groups=2
//
// A kernel written for the mutation sample: each work-group loads its
// slice into local memory and every work-item writes its right neighbour's
// element (the last one wraps to the first).

__kernel void shift_groups(__global const int *in, __global int *out) {
  __local int buf[32];
  int l = get_local_id(0);
  int g = get_global_id(0);
  buf[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  int next = l + 1;
  if (next == 32) {
    next = 0;
  }
  out[g] = buf[next];
}
