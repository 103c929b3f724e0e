// flags: --local_size=32 --num_groups=4 --no-infer
// expect: errors
// A function-wide invariant is a loop invariant of every loop of the
// function, checked at each. The first two hold at both loops; the last
// holds at the first loop only (the second writes below `N`).
__kernel void strided(__global int *A) {
  unsigned N = get_global_size(0);
  unsigned tid = get_global_id(0);
  for (int i = 0; i < 100; i++) {
    A[tid + N] += 1;
  }
  for (int j = 0; j < 100; j++) {
    A[tid] += 1;
  }
  __function_wide_invariant(__write_implies(A, (__write_offset_bytes(A) / sizeof(int)) % N == tid));
  __function_wide_invariant(__read_implies(A, (__read_offset_bytes(A) / sizeof(int)) % N == tid));
  __function_wide_invariant(__write_implies(A, __write_offset_bytes(A) / sizeof(int) >= N));
}
