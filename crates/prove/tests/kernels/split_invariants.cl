// Loop invariants whose condition the compiler splits over several blocks
// (`__ite`) are checked at the loop header.
__kernel void holds(__global int *A, int x) {
  int index = x ? get_local_id(0) : get_global_id(0);
  for (int i = 0;
       __invariant(__write_implies(A, __write_offset_bytes(A) / sizeof(int) == __ite(x, get_local_id(0), get_global_id(0)))),
       i < 100; i++) {
    A[index] = i;
  }
}
__kernel void violated(__global int *A, int x) {
  for (int i = 0; __invariant(__ite(x, i >= 0, i < 50)), i < 100; i++) {
    A[get_global_id(0)] = i;
  }
}
