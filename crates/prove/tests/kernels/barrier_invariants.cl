// Barrier invariants: checked at their barrier, assumed after it for their
// instantiations.
__kernel void own_value() {
  __local int A[128];
  A[get_local_id(0)] = get_local_id(0);
  __barrier_invariant_1(A[get_local_id(0)] == get_local_id(0), get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(A[get_local_id(0)] == get_local_id(0));
}
// The neighbour's value, instantiated for it, makes the scatter race-free.
__kernel void neighbour() {
  __local int A[128];
  __local int B[128];
  A[get_local_id(0)] = get_local_id(0);
  __barrier_invariant_2(A[get_local_id(0)] == get_local_id(0), get_local_id(0), (get_local_id(0) + 1) % 128);
  barrier(CLK_LOCAL_MEM_FENCE);
  B[A[(get_local_id(0) + 1) % 128]] = 1;
}
__kernel void distinct() {
  __local int A[128];
  __local int B[128];
  A[get_local_id(0)] = 2 * get_local_id(0);
  __barrier_invariant_binary_1(A[get_local_id(0)] != A[__other_int(get_local_id(0))],
    get_local_id(0), __other_int(get_local_id(0)));
  barrier(CLK_LOCAL_MEM_FENCE);
  B[A[get_local_id(0)] / 2] = 1;
}
// Violated: the invariant does not hold.
__kernel void wrong_value() {
  __local int A[128];
  A[get_local_id(0)] = get_local_id(0);
  __barrier_invariant_1(A[get_local_id(0)] == get_local_id(0) + 1, get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
}
__kernel void not_distinct() {
  __local int A[128];
  A[get_local_id(0)] = get_local_id(0) / 2;
  __barrier_invariant_binary_1(A[get_local_id(0)] != A[__other_int(get_local_id(0))],
    get_local_id(0), __other_int(get_local_id(0)));
  barrier(CLK_LOCAL_MEM_FENCE);
}
// Violated for the pair: the neighbour's element may have been written by a
// third thread (it holds, but the two-thread check cannot know).
__kernel void unknown_neighbour() {
  __local int A[128];
  A[get_local_id(0)] = get_local_id(0);
  __barrier_invariant_1(A[(get_local_id(0) + 1) % 128] == (get_local_id(0) + 1) % 128, get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
}
// Assumed only for its instantiations...
__kernel void not_instantiated() {
  __local int A[128];
  A[get_local_id(0)] = get_local_id(0);
  __barrier_invariant_1(A[get_local_id(0)] == get_local_id(0), get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(A[(get_local_id(0) + 1) % 128] == (get_local_id(0) + 1) % 128);
}
// ...that are threads of the group.
__kernel void out_of_range() {
  __local int A[128];
  A[get_local_id(0)] = 0;
  __barrier_invariant_1(get_local_id(0) < 128, get_local_id(0) + 128);
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(false);
}
// Only until the next barrier.
__kernel void stale() {
  __local int A[128];
  A[get_local_id(0)] = get_local_id(0);
  __barrier_invariant_1(A[get_local_id(0)] == get_local_id(0), 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  A[get_local_id(0)] = 7;
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(A[0] == 0);
}
