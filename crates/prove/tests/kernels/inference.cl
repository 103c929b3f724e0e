// Loop-invariant inference around inner loops and barriers.

// The read log after the inner loop's barrier only holds this thread's own
// element: the inner loop's reads were cleared by the barrier.
__kernel void read_after_inner_loop() {
  int t0 = get_local_id(0);
  __local int A[32];
  int result;
  for (int c2 = get_group_id(0);
       __invariant(__read_implies(A, __read_offset_bytes(A) / sizeof(int) == t0)),
       c2 < 32; c2 += 32) {
    A[t0] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int c4 = t0; c4 < 32; c4 += 16)
      result = A[31 - t0];
    barrier(CLK_LOCAL_MEM_FENCE);
    result = A[t0];
  }
}

// Threads of different groups loop a different number of times; a thread's
// shared-memory log is cleared at each barrier it passes.
__kernel void group_dependent_loops() {
  local int A[32];
  A[get_local_id(0)] = 42;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 0; __global_invariant(__no_read(A)), __global_invariant(__no_write(A)), j < get_group_id(0); j++) {
    for (int k = 0; k < get_group_id(0); k++) {
      if (j > get_local_id(0)) {
        for (int i = 0; i < get_group_id(0); i++) {
          A[get_local_id(0)] += 42;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  A[(get_local_id(0) + 1) % 32] = 1;
}

// A uniform loop with a thread-dependent branch inside: the threads still
// loop together (no divergence at the barrier), even without inference.
__kernel void uniform_loop_with_guarded_body(__local int *p) {
  for (int d = get_local_size(0) / 2; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < d) {
      p[get_local_id(0)] += p[get_local_id(0) + d];
    }
  }
}
