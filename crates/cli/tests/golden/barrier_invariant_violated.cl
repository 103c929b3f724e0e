// flags: --local_size=64 --num_groups=2
// expect: errors
// A barrier invariant is checked, not trusted: each work-item holds its own
// id plus one, not its id.
__kernel void shifted(__global int *out) {
  __local int A[64];
  A[get_local_id(0)] = get_local_id(0) + 1;
  __barrier_invariant_1(A[get_local_id(0)] == get_local_id(0), get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = A[get_local_id(0)];
}
